-- Catalogs (immutable revisions, content stored once by digest, indexed for queries), fleet subscriptions
-- and the per-cluster subscription status the agent gateway writes.

CREATE TABLE catalogs (
    name              text        PRIMARY KEY
                                  CHECK (name ~ '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$'),
    display_name      text,
    priority          integer     NOT NULL DEFAULT 0,
    -- the newest revision; NULL until the first upload
    current_revision  integer,
    resource_version  bigint      NOT NULL DEFAULT 1,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);

-- Uploaded bytes exactly as received, shared by every revision (of any catalog) with the same digest.
CREATE TABLE catalog_contents (
    digest      text        PRIMARY KEY CHECK (digest ~ '^sha256:[0-9a-f]{64}$'),
    media_type  text        NOT NULL,
    size_bytes  bigint      NOT NULL,
    content     bytea       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE catalog_revisions (
    catalog        text        NOT NULL REFERENCES catalogs (name) ON DELETE CASCADE,
    revision       integer     NOT NULL CHECK (revision > 0),
    digest         text        NOT NULL REFERENCES catalog_contents (digest),
    validation     text        NOT NULL CHECK (validation IN ('strict', 'lenient')),
    package_count  integer     NOT NULL,
    channel_count  integer     NOT NULL,
    bundle_count   integer     NOT NULL,
    warnings       jsonb       NOT NULL DEFAULT '[]'::jsonb,
    uploaded_by    text        NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (catalog, revision)
);

CREATE INDEX catalog_revisions_digest ON catalog_revisions (digest);

-- Query index of a revision: packages, their channels (entries in order) and bundles with versions.
CREATE TABLE catalog_packages (
    catalog          text    NOT NULL,
    revision         integer NOT NULL,
    package          text    NOT NULL,
    default_channel  text,
    description      text,
    usable           boolean NOT NULL DEFAULT true,
    PRIMARY KEY (catalog, revision, package),
    FOREIGN KEY (catalog, revision) REFERENCES catalog_revisions (catalog, revision) ON DELETE CASCADE
);

CREATE TABLE catalog_channels (
    catalog   text    NOT NULL,
    revision  integer NOT NULL,
    package   text    NOT NULL,
    channel   text    NOT NULL,
    head      text,
    -- [{name, replaces, skips, skipRange}] in catalog order
    entries   jsonb   NOT NULL,
    PRIMARY KEY (catalog, revision, package, channel),
    FOREIGN KEY (catalog, revision, package) REFERENCES catalog_packages (catalog, revision, package) ON DELETE CASCADE
);

CREATE TABLE catalog_bundles (
    catalog   text    NOT NULL,
    revision  integer NOT NULL,
    package   text    NOT NULL,
    bundle    text    NOT NULL,
    version   text,
    image     text,
    channels  text[]  NOT NULL DEFAULT '{}',
    PRIMARY KEY (catalog, revision, package, bundle),
    FOREIGN KEY (catalog, revision, package) REFERENCES catalog_packages (catalog, revision, package) ON DELETE CASCADE
);

CREATE TABLE subscriptions (
    name                text        PRIMARY KEY
                                    CHECK (name ~ '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$'),
    -- RESTRICT: a catalog in use cannot be deleted (the API answers 409 before this fires)
    catalog             text        NOT NULL REFERENCES catalogs (name) ON DELETE RESTRICT,
    package             text        NOT NULL,
    channel             text,
    namespace           text        NOT NULL,
    target_namespaces   text[]      NOT NULL DEFAULT '{}',
    placement_selector  text,
    placement_clusters  text[]      NOT NULL DEFAULT '{}',
    version_kind        text        NOT NULL CHECK (version_kind IN ('pin', 'range', 'follow')),
    version_value       text        NOT NULL,
    approval            text        NOT NULL CHECK (approval IN ('Automatic', 'Manual')),
    config              jsonb       NOT NULL DEFAULT '{}'::jsonb,
    team                text,
    crd_removal         text        NOT NULL DEFAULT 'Keep' CHECK (crd_removal IN ('Keep', 'Delete')),
    -- bumped on every spec change; agents ack the generation they applied
    generation          bigint      NOT NULL DEFAULT 1,
    resource_version    bigint      NOT NULL DEFAULT 1,
    created_by          text        NOT NULL,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX subscriptions_catalog ON subscriptions (catalog);
CREATE INDEX subscriptions_team ON subscriptions (team);

-- Latest reported state of one subscription on one cluster, written by the agent gateway (idempotent by seq).
-- No foreign keys: reports about a subscription deleted meanwhile are kept (gone = true) until cleaned up.
CREATE TABLE subscription_status (
    subscription         text        NOT NULL,
    cluster              text        NOT NULL,
    installed_bundle     text,
    installed_version    text,
    target_version       text,
    phase                text,
    reason               text,
    message              text,
    conditions           jsonb       NOT NULL DEFAULT '[]'::jsonb,
    observed_generation  bigint,
    seq                  bigint      NOT NULL DEFAULT 0,
    updated_at           timestamptz NOT NULL DEFAULT now(),
    gone                 boolean     NOT NULL DEFAULT false,
    PRIMARY KEY (subscription, cluster)
);

CREATE INDEX subscription_status_cluster ON subscription_status (cluster);
