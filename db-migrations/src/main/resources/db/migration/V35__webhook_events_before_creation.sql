-- A webhook receives only the events raised after it was created. The fan-out runs about a second after an event
-- (V32), so a webhook created meanwhile was matched against events older than itself: a receiver registered at
-- 12:00:00.5 got a rollout transition of 11:59:59.9. The rule is otherwise V32's, unchanged.
CREATE OR REPLACE FUNCTION olmstead_webhook_fan_out(batch integer, OUT events integer, OUT deliveries integer)
    LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock(8028912578386749039) THEN
        RETURN;
    END IF;
    WITH e AS (
        DELETE FROM webhook_events WHERE id IN (SELECT id FROM webhook_events ORDER BY id LIMIT batch)
        RETURNING id, type, team, subject, body, created_at
    ), d AS (
        INSERT INTO webhook_deliveries (webhook, type, subject, body)
        SELECT w.name, e.type, e.subject, e.body FROM e JOIN webhooks w
            ON olmstead_webhook_matches(w.events, e.type) AND (w.team IS NULL OR w.team = e.team)
            AND w.created_at <= e.created_at
        ORDER BY e.id, w.name
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM e), (SELECT count(*) FROM d) INTO events, deliveries;
END;
$$;
