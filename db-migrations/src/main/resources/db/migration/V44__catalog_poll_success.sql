-- When a catalog's image source was last polled without an error (the digest resolved, and the revision stored when
-- it changed): exported as olmstead_catalog_poll_last_success_timestamp_seconds so that a catalog stuck in error, or
-- never polled at all, can alert. NULL until the first successful poll; a new source image forgets it.
ALTER TABLE catalogs ADD COLUMN last_success_at timestamptz;
