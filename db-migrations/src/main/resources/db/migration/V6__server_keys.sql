-- Secrets every replica must share, e.g. the key that signs pagination cursors. The first replica to start inserts a
-- random one (INSERT ... ON CONFLICT DO NOTHING), every replica then reads the stored one, so they all agree.

CREATE TABLE server_keys (
    name       text        PRIMARY KEY,
    secret     bytea       NOT NULL CHECK (octet_length(secret) >= 32),
    created_at timestamptz NOT NULL DEFAULT now()
);
