-- Webhook events are fanned out to deliveries by the dispatcher, not in the transaction that raised them. The rollout
-- engine's transitions (V25/V27 trigger on rollout_history), agents' status reports (approval.waiting) and the
-- signals evaluator now insert ONE event row whatever the number of webhooks, where V25/V27 inserted one delivery per
-- matching webhook there (WebhookStepBenchIT measured about 0.5 ms per webhook added to every transition).
-- Every replica's dispatcher calls olmstead_webhook_fan_out (webhooks/Deliveries#fanOut) about once a second.
CREATE TABLE webhook_events (
    id          bigserial   PRIMARY KEY,
    type        text        NOT NULL,
    -- the team whose webhooks receive it, besides the webhooks of no team (NULL: only those)
    team        text,
    subject     text,
    -- the CloudEvent (structured mode) exactly as each delivery will sign and send it
    body        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Same signature and callers as V27's (the triggers and the signals evaluator go through it); answers the event rows
-- written (0 when there is no webhook at all, so that a fleet without webhooks keeps no outbox).
CREATE OR REPLACE FUNCTION olmstead_webhook_enqueue(event_type text, event_team text, event_subject text, event_body text)
    RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM webhooks) THEN
        RETURN 0;
    END IF;
    INSERT INTO webhook_events (type, team, subject, body) VALUES (event_type, event_team, event_subject, event_body);
    RETURN 1;
END;
$$;

-- Moves the oldest `batch` events to one delivery per webhook whose patterns match and whose team is NULL or the
-- event's (the V25/V27 rule, unchanged), in event order (delivery ids follow event ids, then webhook names), and
-- deletes them in the same statement: an event is gone only with its deliveries queued; an event no webhook matches
-- is dropped. One replica at a time (a transaction-scoped advisory lock, "olmswhfo"): batches never interleave, so
-- each webhook's deliveries keep the order of the events. Answers (events, deliveries); (NULL, NULL) when another
-- replica holds the lock.
CREATE FUNCTION olmstead_webhook_fan_out(batch integer, OUT events integer, OUT deliveries integer)
    LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock(8028912578386749039) THEN
        RETURN;
    END IF;
    WITH e AS (
        DELETE FROM webhook_events WHERE id IN (SELECT id FROM webhook_events ORDER BY id LIMIT batch)
        RETURNING id, type, team, subject, body
    ), d AS (
        INSERT INTO webhook_deliveries (webhook, type, subject, body)
        SELECT w.name, e.type, e.subject, e.body FROM e JOIN webhooks w
            ON olmstead_webhook_matches(w.events, e.type) AND (w.team IS NULL OR w.team = e.team)
        ORDER BY e.id, w.name
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM e), (SELECT count(*) FROM d) INTO events, deliveries;
END;
$$;
