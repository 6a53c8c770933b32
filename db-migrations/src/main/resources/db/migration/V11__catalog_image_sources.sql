-- A catalog may come from a catalog image: the control plane polls the reference and stores a new revision (read
-- from the image's FBC directory) whenever the digest changes. Uploads keep working for catalogs without a source.
ALTER TABLE catalogs
    ADD COLUMN source_image           text,
    ADD COLUMN poll_interval_seconds  integer CHECK (poll_interval_seconds IS NULL OR poll_interval_seconds >= 60),
    ADD COLUMN last_poll_at           timestamptz,
    -- the digest the reference resolved to at the last successful poll (the image of the current revision)
    ADD COLUMN source_digest          text,
    ADD COLUMN last_error             text;

CREATE INDEX catalogs_sourced ON catalogs (last_poll_at) WHERE source_image IS NOT NULL;
