-- HyperShift: a cluster whose HostedCluster went away is kept as 'retired' (history kept, credential revoked, no longer
-- placed), and the watcher's identity map says which Olmstead cluster each HostedCluster (by its immutable
-- spec.clusterID) was enrolled as. Only the watcher writes hosted_clusters; a cluster enrolled any other way has no
-- row here, which is how the watcher knows never to take it over.

ALTER TABLE clusters DROP CONSTRAINT clusters_status_check;
ALTER TABLE clusters ADD CONSTRAINT clusters_status_check
    CHECK (status IN ('pending', 'connected', 'disconnected', 'retired'));

CREATE TABLE hosted_clusters (
    cluster_id    text        PRIMARY KEY CHECK (length(cluster_id) BETWEEN 1 AND 64),
    -- the name it was enrolled as (kept when the row goes: a clusterID keeps its name)
    cluster_name  text        NOT NULL,
    -- the cluster row it holds while that row exists; an admin's delete, or a re-created HostedCluster of another
    -- clusterID replacing a retired row, unlinks it
    cluster       text        UNIQUE REFERENCES clusters (name) ON DELETE SET NULL,
    namespace     text        NOT NULL,
    name          text        NOT NULL,
    -- the labels that came from the HostedCluster last time (removed from the cluster when the HostedCluster drops
    -- them; labels an admin set stay)
    labels        jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(labels) = 'object'),
    enrolled_at   timestamptz NOT NULL DEFAULT now(),
    retired_at    timestamptz
);
