-- Bundle images unpacked by the control plane, content-addressed by the image digest the catalogs name, shared by
-- every catalog and revision that names it. Agents fetch the objects from here and never talk to a registry.

CREATE TABLE bundle_images (
    digest           text        PRIMARY KEY CHECK (digest ~ '^sha256:[0-9a-f]{64}$'),
    -- the reference it was first requested by (registry/repository@digest)
    image            text        NOT NULL,
    state            text        NOT NULL DEFAULT 'Pending'
                                 CHECK (state IN ('Pending', 'Unpacking', 'Unpacked', 'Failed')),
    -- the registry's or the validator's message for the last failure (kept while a retry is pending)
    message          text,
    attempts         integer     NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz,
    -- while Unpacking: when the claim lapses (a replica that died mid-pull does not hold the bundle forever)
    claimed_until    timestamptz,
    -- Unpacked only: gzip of {"objects":[{"data": base64}], "annotations":{}} (immutable from then on)
    objects_gz       bytea,
    object_count     integer,
    size_bytes       bigint,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    CHECK (state <> 'Unpacked' OR objects_gz IS NOT NULL)
);

CREATE INDEX bundle_images_due ON bundle_images (next_attempt_at) WHERE state = 'Pending';
