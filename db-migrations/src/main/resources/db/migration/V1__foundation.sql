-- Foundation: API tokens (stored hashed) and the audit log every mutation writes to.

CREATE TABLE api_tokens (
    id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    name        text        NOT NULL,
    role        text        NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
    teams       text[]      NOT NULL DEFAULT '{}',
    token_hash  bytea       NOT NULL UNIQUE,
    created_by  text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);

-- One live token per name; revoked ones stay for the audit trail.
CREATE UNIQUE INDEX api_tokens_live_name ON api_tokens (name) WHERE revoked_at IS NULL;

CREATE TABLE audit_log (
    id          bigserial   PRIMARY KEY,
    at          timestamptz NOT NULL DEFAULT now(),
    actor       text        NOT NULL,
    action      text        NOT NULL,
    resource    text        NOT NULL,
    outcome     text        NOT NULL,
    detail      jsonb       NOT NULL DEFAULT '{}'::jsonb,
    request_id  text
);

CREATE INDEX audit_log_at ON audit_log (at DESC, id DESC);
