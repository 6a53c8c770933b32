-- Adoption over time: what the dashboard's chart needs, not every status row. The sampler on the leader replica
-- writes a snapshot of a subscription (one row per installed version, at one minute) only when its counts changed
-- since its last snapshot, and at least once a day; a reader carries the last snapshot forward. Clusters without an
-- installed version count under 'none' (as in the status totals); a subscription with no status rows is one row
-- 'none' with 0 clusters. Rows older than the retention (30 days) are
-- deleted in bounded batches.
CREATE TABLE subscription_adoption (
    subscription  text        NOT NULL,
    team          text,
    at            timestamptz NOT NULL,
    version       text        NOT NULL,
    clusters      integer     NOT NULL CHECK (clusters >= 0),
    PRIMARY KEY (subscription, at, version)
);
CREATE INDEX subscription_adoption_at ON subscription_adoption (at);
