-- Per revision, what an agent installs a bundle from: its embedded objects, or its image pinned by digest. A bundle
-- named by tag is resolved once for the revision (image_digest stays what the tag named then, even when the tag
-- moves); a bundle named by digest records that digest at once. NULL embedded: a revision indexed before this.
ALTER TABLE catalog_bundles
    ADD COLUMN embedded      boolean,
    ADD COLUMN image_digest  text CHECK (image_digest ~ '^sha256:[0-9a-f]{64}$'),
    -- the registry's answer when the tag could not be resolved (retried by the pin sweep after pinned_at + backoff)
    ADD COLUMN pin_error     text,
    ADD COLUMN pinned_at     timestamptz;

UPDATE catalog_bundles SET image_digest = right(image, 71) WHERE image ~ '@sha256:[0-9a-f]{64}$';

-- the pin sweep's work: image-only bundles named by tag, not resolved yet
CREATE INDEX catalog_bundles_unpinned ON catalog_bundles (catalog, revision)
    WHERE embedded = false AND image_digest IS NULL;
CREATE INDEX catalog_bundles_image_digest ON catalog_bundles (image_digest) WHERE image_digest IS NOT NULL;

-- an image reference with its tag (or digest) replaced by a digest: what an unpack pulls (BundlePins.pinned in Java)
CREATE FUNCTION pinned_image(image text, digest text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT regexp_replace(image, '(:[^/:@]+)?(@sha256:[0-9a-f]{64})?$', '') || '@' || digest $$;
