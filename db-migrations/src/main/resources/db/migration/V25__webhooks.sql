-- Webhooks: CloudEvents about rollouts pushed to receivers. Every rollout_history row (the engine's and the
-- operators' transitions) becomes, in the same transaction, one pending delivery per webhook whose type patterns
-- match and whose team (if any) is the rollout's: the engine only inserts rows, the delivery happens later on
-- whichever replica claims it (FOR UPDATE SKIP LOCKED), so a slow receiver never holds the engine up.

CREATE TABLE webhooks (
    name              text        PRIMARY KEY CHECK (name ~ '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$'),
    url               text        NOT NULL,
    -- CloudEvents type patterns: an exact type, or a prefix ending in '.*', or '*'
    events            text[]      NOT NULL,
    -- the HMAC-SHA256 key; never returned by the API nor logged
    secret            text        NOT NULL,
    -- a team-scoped creator's team: only that team's rollouts are delivered; NULL: every rollout
    team              text,
    created_by        text        NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
    id                bigserial   PRIMARY KEY,
    webhook           text        NOT NULL REFERENCES webhooks (name) ON DELETE CASCADE,
    type              text        NOT NULL,
    subject           text,
    -- the CloudEvent (structured mode), exactly the bytes signed and sent
    body              text        NOT NULL,
    state             text        NOT NULL DEFAULT 'Pending' CHECK (state IN ('Pending', 'Delivered', 'Failed', 'Dropped')),
    attempts          integer     NOT NULL DEFAULT 0,
    -- also the lease: a replica that claims a delivery moves this ahead while it sends
    next_attempt_at   timestamptz NOT NULL DEFAULT now(),
    last_status       integer,
    last_error        text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    finished_at       timestamptz
);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'Pending';
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook) WHERE state = 'Pending';
CREATE INDEX webhook_deliveries_recent ON webhook_deliveries (webhook, id DESC);

CREATE FUNCTION olmstead_webhook_matches(patterns text[], event_type text) RETURNS boolean
    LANGUAGE sql IMMUTABLE AS $$
    SELECT EXISTS (SELECT 1 FROM unnest(patterns) p
                   WHERE p = event_type OR (right(p, 1) = '*' AND starts_with(event_type, left(p, -1))))
$$;

-- Bounded by the dispatcher (WebhookStore): past 10,000 pending deliveries for one webhook (a receiver down for
-- long) the oldest become Dropped, and finished deliveries are deleted after 7 days. The trigger does no counting,
-- so the engine's transactions cost one small insert per matching webhook.
CREATE FUNCTION olmstead_webhook_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r          rollouts%ROWTYPE;
    event_type text := 'io.olmstead.rollout.' || lower(regexp_replace(NEW.kind, '([a-z])([A-Z])', '\1.\2', 'g'));
    w          webhooks%ROWTYPE;
    body       text;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM webhooks) THEN
        RETURN NULL;
    END IF;
    SELECT * INTO r FROM rollouts WHERE id = NEW.rollout_id;
    body := json_build_object(
        'specversion', '1.0',
        'id', 'rollout-history-' || NEW.id,
        'source', '/api/v1/rollouts/' || NEW.rollout_id,
        'type', event_type,
        'subject', coalesce(NEW.cluster, NEW.wave, r.subscription),
        'time', to_char(NEW.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'datacontenttype', 'application/json',
        'data', json_build_object('rollout', NEW.rollout_id, 'subscription', r.subscription,
            'targetVersion', r.target_version, 'state', r.state, 'kind', NEW.kind, 'wave', NEW.wave,
            'cluster', NEW.cluster, 'message', NEW.message, 'actor', NEW.actor))::text;
    FOR w IN SELECT * FROM webhooks
             WHERE olmstead_webhook_matches(events, event_type) AND (team IS NULL OR team = r.team) LOOP
        INSERT INTO webhook_deliveries (webhook, type, subject, body)
        VALUES (w.name, event_type, coalesce(NEW.cluster, NEW.wave, r.subscription), body);
    END LOOP;
    RETURN NULL;
END;
$$;

CREATE TRIGGER rollout_history_webhooks
    AFTER INSERT ON rollout_history
    FOR EACH ROW EXECUTE FUNCTION olmstead_webhook_outbox();
