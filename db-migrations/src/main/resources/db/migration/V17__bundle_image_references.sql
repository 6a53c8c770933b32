-- Every reference a bundle image's digest has been named by (latest first, at most 8), so a digest that failed
-- under one reference is tried again when another reference (another registry, a mirror, a fixed catalog) names it,
-- and a pull can fall back to an older reference that still works. `image` stays the latest reference.
ALTER TABLE bundle_images ADD COLUMN images text[] NOT NULL DEFAULT '{}';
UPDATE bundle_images SET images = ARRAY[image];

-- When a catalog revision last named the digest: a revision newer than a failure tries the bundle again.
ALTER TABLE bundle_images ADD COLUMN named_at timestamptz;
