-- Clusters of the fleet and the enrollment tokens agents exchange for a per-cluster credential.

CREATE TABLE clusters (
    name                text        PRIMARY KEY
                                    CHECK (length(name) <= 63 AND name ~ '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'),
    labels              jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(labels) = 'object'),
    status              text        NOT NULL DEFAULT 'pending'
                                    CHECK (status IN ('pending', 'connected', 'disconnected')),
    last_seen           timestamptz,
    agent_version       text,
    kubernetes_version  text,
    facts               jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(facts) = 'object'),
    resource_version    bigint      NOT NULL DEFAULT 1,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);

-- Label selectors become containment (@>) and key-existence (?) tests over labels.
CREATE INDEX clusters_labels ON clusters USING gin (labels);
CREATE INDEX clusters_status_name ON clusters (status, name);

CREATE TABLE enrollment_tokens (
    id            uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    token_hash    bytea       NOT NULL UNIQUE,
    labels        jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(labels) = 'object'),
    cluster_name  text,
    max_uses      integer     NOT NULL CHECK (max_uses > 0),
    uses          integer     NOT NULL DEFAULT 0 CHECK (uses >= 0 AND uses <= max_uses),
    expires_at    timestamptz NOT NULL,
    created_by    text        NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    revoked_at    timestamptz
);

CREATE INDEX enrollment_tokens_created ON enrollment_tokens (created_at DESC, id DESC);
