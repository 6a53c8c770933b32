-- Team isolation. A rollout keeps the team of its subscription when it was created (a later subscription of the
-- same name in another team does not inherit its history), and every change the event stream shows is announced on
-- olmstead_events with the teams it concerns, so each client of GET /events gets only its teams' events.

ALTER TABLE rollouts ADD COLUMN team text;
UPDATE rollouts r SET team = s.team FROM subscriptions s WHERE s.name = r.subscription;
CREATE INDEX rollouts_team ON rollouts (team, started_at DESC, id DESC);

-- Payload {"type": TG_ARGV[0], "id": <TG_ARGV[1] of the row>, "teams": [...]}. The teams are the owning team before
-- and after the change, read at the JSON path TG_ARGV[2] of the row, or, when TG_ARGV[2] is 'cluster', the team label
-- of the cluster the row names. An event of no team reaches only clients without a team scope.
CREATE FUNCTION olmstead_notify_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_row jsonb := CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE to_jsonb(OLD) END;
    new_row jsonb := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE to_jsonb(NEW) END;
    row_id  text  := coalesce(new_row, old_row) ->> TG_ARGV[1];
    teams   text[];
BEGIN
    IF TG_ARGV[2] = 'cluster' THEN
        SELECT ARRAY[labels ->> 'olmstead.io/team'] INTO teams FROM clusters WHERE name = row_id;
    ELSE
        teams := ARRAY[old_row #>> TG_ARGV[2]::text[], new_row #>> TG_ARGV[2]::text[]];
    END IF;
    PERFORM pg_notify('olmstead_events', json_build_object('type', TG_ARGV[0], 'id', row_id, 'teams',
        (SELECT coalesce(json_agg(DISTINCT t), '[]'::json) FROM unnest(teams) t WHERE t IS NOT NULL))::text);
    RETURN NULL;
END;
$$;

-- enrolled, deleted, relabelled or re-enrolled clusters (every change an API caller makes bumps resource_version)
CREATE TRIGGER clusters_events
    AFTER INSERT OR DELETE ON clusters
    FOR EACH ROW EXECUTE FUNCTION olmstead_notify_event('cluster', 'name', '{labels,olmstead.io/team}');
CREATE TRIGGER clusters_events_update
    AFTER UPDATE ON clusters
    FOR EACH ROW WHEN (OLD.labels IS DISTINCT FROM NEW.labels OR OLD.resource_version <> NEW.resource_version)
    EXECUTE FUNCTION olmstead_notify_event('cluster', 'name', '{labels,olmstead.io/team}');

CREATE TRIGGER subscriptions_events
    AFTER INSERT OR UPDATE OR DELETE ON subscriptions
    FOR EACH ROW EXECUTE FUNCTION olmstead_notify_event('subscription', 'name', '{team}');

-- the rollout row is written on every step and command that changed something
CREATE TRIGGER rollouts_events
    AFTER INSERT OR UPDATE ON rollouts
    FOR EACH ROW EXECUTE FUNCTION olmstead_notify_event('rollout', 'id', '{team}');

-- a version a rollout approved for a cluster changes what that cluster is asked to run
CREATE TRIGGER rollout_approvals_events
    AFTER INSERT OR UPDATE OR DELETE ON rollout_approvals
    FOR EACH ROW EXECUTE FUNCTION olmstead_notify_event('cluster', 'cluster', 'cluster');
