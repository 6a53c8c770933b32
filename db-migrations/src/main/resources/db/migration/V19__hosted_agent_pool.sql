-- The hosted agent pool: pool tokens an admin creates (stored only as SHA-256, like every token), the pool replicas
-- connected now (each row kept alive by the control plane replica holding its connection), and which pool replica
-- was last handed each hosted cluster's agent credential (a handover rotates the credential, so only that replica's
-- copy works).

CREATE TABLE pool_tokens (
    id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    name        text        NOT NULL CHECK (length(name) BETWEEN 1 AND 63),
    token_hash  bytea       NOT NULL UNIQUE,
    created_by  text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);

CREATE TABLE pool_members (
    member      text        PRIMARY KEY CHECK (length(member) BETWEEN 1 AND 63),
    token_id    uuid        NOT NULL REFERENCES pool_tokens (id) ON DELETE CASCADE,
    -- the control plane replica holding the connection, and that connection's id (a newer one replaces it)
    replica     text        NOT NULL,
    session     text        NOT NULL,
    last_seen   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE pool_assignments (
    cluster         text        PRIMARY KEY REFERENCES clusters (name) ON DELETE CASCADE,
    member          text        NOT NULL,
    handed_over_at  timestamptz NOT NULL DEFAULT now()
);
