-- Signals on subscriptions (upgrades available, deprecations, a newer channel, stuck clusters) and the webhook
-- events that are not rollout transitions (approval waiting, cluster disconnected/reconnected). Every such event goes
-- through the V25 outbox (webhook_deliveries) in the transaction of the change that raised it.

-- olm.deprecations of each package of a revision, as indexed at upload: [{schema, name, message}]. Revisions
-- uploaded before this migration have none recorded (upload them again to see their deprecations).
ALTER TABLE catalog_packages ADD COLUMN deprecations jsonb NOT NULL DEFAULT '[]'::jsonb;

-- Since when the subscription on this cluster has not been Succeeded (NULL while it is): kept by the trigger below
-- from the agent's reports, so that "stuck for longer than a threshold" is one indexed comparison.
ALTER TABLE subscription_status ADD COLUMN unsucceeded_since timestamptz;
UPDATE subscription_status SET unsucceeded_since = updated_at WHERE phase IS DISTINCT FROM 'Succeeded' AND NOT gone;
CREATE INDEX subscription_status_unsucceeded ON subscription_status (subscription, unsucceeded_since)
    WHERE unsucceeded_since IS NOT NULL;

CREATE FUNCTION olmstead_status_unsucceeded_since() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.gone OR NEW.phase = 'Succeeded' THEN
        NEW.unsucceeded_since := NULL;
    ELSIF TG_OP = 'INSERT' OR OLD.unsucceeded_since IS NULL THEN
        NEW.unsucceeded_since := now();
    ELSE
        NEW.unsucceeded_since := OLD.unsucceeded_since;
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER subscription_status_unsucceeded_since
    BEFORE INSERT OR UPDATE ON subscription_status
    FOR EACH ROW EXECUTE FUNCTION olmstead_status_unsucceeded_since();

-- Queues one delivery of a CloudEvent per webhook whose patterns match and whose team is NULL (every event) or the
-- event's team. An event of no team reaches only webhooks without a team.
CREATE FUNCTION olmstead_webhook_enqueue(event_type text, event_team text, event_subject text, event_body text)
    RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    queued integer;
BEGIN
    INSERT INTO webhook_deliveries (webhook, type, subject, body)
    SELECT w.name, event_type, event_subject, event_body FROM webhooks w
    WHERE olmstead_webhook_matches(w.events, event_type) AND (w.team IS NULL OR w.team = event_team);
    GET DIAGNOSTICS queued = ROW_COUNT;
    RETURN queued;
END;
$$;

-- io.olmstead.approval.waiting: a cluster's agent starts reporting RequiresApproval for a subscription, or for another
-- bundle of it (the bundle is the RequiresApproval condition's message). The event's team is the subscription's; a
-- team's subscription reported by a cluster outside the team is ignored (as the status reads ignore it).
CREATE FUNCTION olmstead_approval_waiting() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    new_bundle   text;
    old_bundle   text;
    sub_team     text;
    cluster_team text;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM webhooks) THEN
        RETURN NULL;
    END IF;
    SELECT c ->> 'message' INTO new_bundle FROM jsonb_array_elements(NEW.conditions) c
        WHERE c ->> 'type' = 'RequiresApproval' LIMIT 1;
    IF TG_OP = 'UPDATE' AND OLD.phase = 'RequiresApproval' AND NOT OLD.gone THEN
        SELECT c ->> 'message' INTO old_bundle FROM jsonb_array_elements(OLD.conditions) c
            WHERE c ->> 'type' = 'RequiresApproval' LIMIT 1;
        IF old_bundle IS NOT DISTINCT FROM new_bundle THEN
            RETURN NULL;
        END IF;
    END IF;
    SELECT team INTO sub_team FROM subscriptions WHERE name = NEW.subscription;
    SELECT labels ->> 'olmstead.io/team' INTO cluster_team FROM clusters WHERE name = NEW.cluster;
    IF sub_team IS NOT NULL AND cluster_team IS DISTINCT FROM sub_team THEN
        RETURN NULL;
    END IF;
    PERFORM olmstead_webhook_enqueue('io.olmstead.approval.waiting', sub_team, NEW.cluster,
        json_build_object(
            'specversion', '1.0',
            'id', 'approval-waiting-' || md5(NEW.subscription || '/' || NEW.cluster || '/' || coalesce(new_bundle, '')
                || '/' || NEW.seq),
            'source', '/api/v1/clusters/' || NEW.cluster,
            'type', 'io.olmstead.approval.waiting',
            'subject', NEW.cluster,
            'time', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'datacontenttype', 'application/json',
            'data', json_build_object('cluster', NEW.cluster, 'subscription', NEW.subscription,
                'bundle', new_bundle, 'installedVersion', NEW.installed_version, 'team', sub_team))::text);
    RETURN NULL;
END;
$$;

CREATE TRIGGER subscription_status_approval_waiting
    AFTER INSERT OR UPDATE ON subscription_status
    FOR EACH ROW WHEN (NEW.phase = 'RequiresApproval' AND NOT NEW.gone)
    EXECUTE FUNCTION olmstead_approval_waiting();

-- The last signals computed for each subscription (by the leader's evaluator), compared with the next evaluation to
-- emit events on change only. The team is the subscription's, for the event stream's filter.
CREATE TABLE subscription_signals (
    subscription  text        PRIMARY KEY REFERENCES subscriptions (name) ON DELETE CASCADE,
    team          text,
    signals       jsonb       NOT NULL,
    evaluated_at  timestamptz NOT NULL DEFAULT now()
);

-- GET /events: 'subscription.signals' when a subscription's signals change (not on every evaluation)
CREATE TRIGGER subscription_signals_events
    AFTER INSERT ON subscription_signals
    FOR EACH ROW EXECUTE FUNCTION olmstead_notify_event('subscription.signals', 'subscription', '{team}');
CREATE TRIGGER subscription_signals_events_update
    AFTER UPDATE ON subscription_signals
    FOR EACH ROW WHEN (OLD.signals IS DISTINCT FROM NEW.signals)
    EXECUTE FUNCTION olmstead_notify_event('subscription.signals', 'subscription', '{team}');

-- Clusters whose disconnection was announced (io.olmstead.cluster.disconnected), so that it is announced once and
-- followed by io.olmstead.cluster.reconnected when the agent is back.
CREATE TABLE cluster_disconnections (
    cluster       text        PRIMARY KEY REFERENCES clusters (name) ON DELETE CASCADE,
    since         timestamptz,
    announced_at  timestamptz NOT NULL DEFAULT now()
);

-- The V25 rollout outbox, the same events to the same webhooks, with one set-based insert instead of one insert per
-- matching webhook: it runs in the rollout engine's transactions (WebhookStepBenchIT measures it).
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
            'cluster', NEW.cluster, 'message', NEW.message, 'actor', NEW.actor))::text);
    RETURN NULL;
END;
$$;
