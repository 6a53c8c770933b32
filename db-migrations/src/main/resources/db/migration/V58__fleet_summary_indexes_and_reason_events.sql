-- GET /fleet/summary counts a page of subscriptions' clusters by installed version and phase, and lists each one's
-- latest failures. The counts read this covering index only (no table row: an index-only scan of the rows not gone);
-- a version or phase change already rewrites the row's index entries (phase is in subscription_status_waiting's
-- predicate), so the write path gains one index entry on such a change and nothing on a report that changes neither.
CREATE INDEX subscription_status_versions ON subscription_status (subscription, installed_version, phase, cluster)
    WHERE NOT gone;
-- The failures: only failed rows, few at any time, found per subscription without a pass over its rows. Not keyed by
-- updated_at, which every report moves: that would end heap-only updates of every status row.
CREATE INDEX subscription_status_failed ON subscription_status (subscription) WHERE phase = 'Failed' AND NOT gone;
-- A deleted cluster's status rows go with it (as its credentials, approvals and inventory do by their foreign keys):
-- the summary then counts every status row but those of retired clusters, found through the few retired ones.
DELETE FROM subscription_status s WHERE NOT EXISTS (SELECT 1 FROM clusters c WHERE c.name = s.cluster);
CREATE FUNCTION olmstead_cluster_status_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM subscription_status WHERE cluster = OLD.name;
  RETURN OLD;
END $$;
CREATE TRIGGER clusters_status_gone AFTER DELETE ON clusters FOR EACH ROW
    EXECUTE FUNCTION olmstead_cluster_status_gone();

-- GET /events: {"type": "cluster.reason", "id": cluster, "subscription", "reason": {code, subject, at} or null} when a
-- cluster's reason changes through its agent alone, outside any rollout step: a subscription's install becomes
-- Failed (subject: the agent's reason) or stops being Failed (reason null), the agent goes away (Disconnected,
-- subscription null, at: last seen) or comes back (reason null). To the cluster's team; a status row's event also
-- names the subscription's team, and a team-scoped client sees it only when it may see both (as it reads the row).
-- The replicas coalesce these per cluster and subscription and send a bounded number a second (RolloutEvents).
CREATE FUNCTION olmstead_notify_status_reason() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    cluster_team text;
    sub_team     text;
    failed       boolean;
BEGIN
    SELECT labels ->> 'olmstead.io/team' INTO cluster_team FROM clusters WHERE name = NEW.cluster;
    SELECT team INTO sub_team FROM subscriptions WHERE name = NEW.subscription;
    failed := NEW.phase = 'Failed' AND NOT NEW.gone;
    PERFORM pg_notify('olmstead_events', json_build_object('type', 'cluster.reason', 'id', NEW.cluster,
        'subscription', NEW.subscription,
        'reason', CASE WHEN failed THEN json_build_object('code', 'Failed', 'subject', NEW.reason,
            'at', to_char(NEW.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END,
        'teams', CASE WHEN cluster_team IS NULL THEN '[]'::json ELSE json_build_array(cluster_team) END,
        'subscriptionTeam', sub_team)::text);
    RETURN NULL;
END;
$$;
CREATE TRIGGER subscription_status_reason_events
    AFTER INSERT ON subscription_status
    FOR EACH ROW WHEN (NEW.phase = 'Failed' AND NOT NEW.gone)
    EXECUTE FUNCTION olmstead_notify_status_reason();
CREATE TRIGGER subscription_status_reason_events_update
    AFTER UPDATE ON subscription_status
    FOR EACH ROW WHEN ((coalesce(OLD.phase = 'Failed', false) AND NOT OLD.gone)
        IS DISTINCT FROM (coalesce(NEW.phase = 'Failed', false) AND NOT NEW.gone))
    EXECUTE FUNCTION olmstead_notify_status_reason();

CREATE FUNCTION olmstead_notify_connection_reason() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    cluster_team text := NEW.labels ->> 'olmstead.io/team';
BEGIN
    PERFORM pg_notify('olmstead_events', json_build_object('type', 'cluster.reason', 'id', NEW.name,
        'subscription', NULL,
        'reason', CASE WHEN NEW.status = 'disconnected' THEN json_build_object('code', 'Disconnected',
            'subject', NULL, 'at', to_char(NEW.last_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END,
        'teams', CASE WHEN cluster_team IS NULL THEN '[]'::json ELSE json_build_array(cluster_team) END)::text);
    RETURN NULL;
END;
$$;
CREATE TRIGGER clusters_connection_reason_events
    AFTER UPDATE ON clusters
    FOR EACH ROW WHEN ((OLD.status = 'disconnected') IS DISTINCT FROM (NEW.status = 'disconnected'))
    EXECUTE FUNCTION olmstead_notify_connection_reason();
