-- Webhook names are unique per team, not across teams: each team (and the fleet-wide webhooks of no team) has its own
-- namespace, so creating a webhook never reveals that another team uses the name. A webhook is identified by a
-- surrogate id, which its deliveries reference; the API resolves (team, name) to it (webhooks/WebhookRefs).
ALTER TABLE webhooks ADD COLUMN id bigserial;

ALTER TABLE webhook_deliveries ADD COLUMN webhook_id bigint;
UPDATE webhook_deliveries d SET webhook_id = w.id FROM webhooks w WHERE w.name = d.webhook;
ALTER TABLE webhook_deliveries ALTER COLUMN webhook_id SET NOT NULL;
-- drops the foreign key to webhooks (name) and the indexes on the name with it
ALTER TABLE webhook_deliveries DROP COLUMN webhook;

ALTER TABLE webhooks DROP CONSTRAINT webhooks_pkey;
ALTER TABLE webhooks ADD PRIMARY KEY (id);
-- '' stands for "no team": an API team name is never empty (WebhookRequest.team has minLength 1)
CREATE UNIQUE INDEX webhooks_team_name ON webhooks ((coalesce(team, '')), name);

ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_webhook_id_fkey
    FOREIGN KEY (webhook_id) REFERENCES webhooks (id) ON DELETE CASCADE;
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id) WHERE state = 'Pending';
CREATE INDEX webhook_deliveries_recent ON webhook_deliveries (webhook_id, id DESC);

-- V35's fan-out, queuing deliveries by webhook id (in event order, then webhook id); otherwise unchanged.
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
        INSERT INTO webhook_deliveries (webhook_id, type, subject, body)
        SELECT w.id, e.type, e.subject, e.body FROM e JOIN webhooks w
            ON olmstead_webhook_matches(w.events, e.type) AND (w.team IS NULL OR w.team = e.team)
            AND w.created_at <= e.created_at
        ORDER BY e.id, w.id
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM e), (SELECT count(*) FROM d) INTO events, deliveries;
END;
$$;
