-- The reason of a held or failed cluster, in the vocabulary of the API's ReasonCode (rollout/ClusterReason), on the
-- rollout history row that held or failed it, and on the events about it: the webhook payload's data.reason, and a
-- 'rollout.cluster' event on GET /events. {code, subject, message} as the engine wrote it (NULL: no reason to give).
ALTER TABLE rollout_history ADD COLUMN reason jsonb;

-- {code, subject, at} of a history row's reason, `at` the row's time (NULL when the row has no reason).
CREATE FUNCTION olmstead_history_reason(h rollout_history) RETURNS json LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN h.reason IS NULL THEN NULL ELSE json_build_object('code', h.reason ->> 'code',
        'subject', h.reason ->> 'subject',
        'at', to_char(h.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END
$$;

-- The V27 rollout outbox, unchanged but for data.reason.
CREATE OR REPLACE FUNCTION olmstead_webhook_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r          rollouts%ROWTYPE;
    event_type text := 'io.olmstead.rollout.' || lower(regexp_replace(NEW.kind, '([a-z])([A-Z])', '\1.\2', 'g'));
    subject    text;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM webhooks) THEN
        RETURN NULL;
    END IF;
    SELECT * INTO r FROM rollouts WHERE id = NEW.rollout_id;
    subject := coalesce(NEW.cluster, NEW.wave, r.subscription);
    PERFORM olmstead_webhook_enqueue(event_type, r.team, subject, json_build_object(
        'specversion', '1.0',
        'id', 'rollout-history-' || NEW.id,
        'source', '/api/v1/rollouts/' || NEW.rollout_id,
        'type', event_type,
        'subject', subject,
        'time', to_char(NEW.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'datacontenttype', 'application/json',
        'data', json_build_object('rollout', NEW.rollout_id, 'subscription', r.subscription,
            'targetVersion', r.target_version, 'state', r.state, 'kind', NEW.kind, 'wave', NEW.wave,
            'cluster', NEW.cluster, 'message', NEW.message, 'actor', NEW.actor,
            'reason', olmstead_history_reason(NEW)))::text);
    RETURN NULL;
END;
$$;

-- GET /events: {"type": "rollout.cluster", "id": rollout, "cluster", "kind", "reason": {code, subject, at}} for each
-- history row that holds or fails a cluster with a reason, to the rollout's team (as the V8 'rollout' event).
CREATE FUNCTION olmstead_notify_cluster_reason() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    rollout_team text;
BEGIN
    SELECT team INTO rollout_team FROM rollouts WHERE id = NEW.rollout_id;
    PERFORM pg_notify('olmstead_events', json_build_object('type', 'rollout.cluster', 'id', NEW.rollout_id,
        'cluster', NEW.cluster, 'kind', NEW.kind, 'reason', olmstead_history_reason(NEW),
        'teams', CASE WHEN rollout_team IS NULL THEN '[]'::json ELSE json_build_array(rollout_team) END)::text);
    RETURN NULL;
END;
$$;
CREATE TRIGGER rollout_history_cluster_reason_events
    AFTER INSERT ON rollout_history
    FOR EACH ROW WHEN (NEW.reason IS NOT NULL AND NEW.cluster IS NOT NULL)
    EXECUTE FUNCTION olmstead_notify_cluster_reason();
