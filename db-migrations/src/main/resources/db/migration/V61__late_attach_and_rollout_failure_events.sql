-- Agent sessions in the order their connections were authenticated (a later connection of a cluster has a higher
-- number, whatever the replicas' clocks): an attach stored late (its session closed while it waited on the database,
-- and the agent reconnected meanwhile) never replaces the row of a later session.
CREATE SEQUENCE agent_session_order;
ALTER TABLE agent_channel_state ADD COLUMN session_order bigint;

-- cluster.reason (V58): a subscription's install that becomes Failed on a cluster of that subscription's active
-- rollout is told by the rollout alone (rollout.cluster, V54), not twice.
CREATE OR REPLACE FUNCTION olmstead_notify_status_reason() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    cluster_team text;
    sub_team     text;
    failed       boolean;
BEGIN
    failed := NEW.phase = 'Failed' AND NOT NEW.gone;
    IF failed AND EXISTS (SELECT 1 FROM rollouts r JOIN rollout_clusters rc ON rc.rollout_id = r.id
            AND rc.cluster = NEW.cluster
            WHERE r.subscription = NEW.subscription AND r.state IN ('Progressing', 'Paused')) THEN
        RETURN NULL;
    END IF;
    SELECT labels ->> 'olmstead.io/team' INTO cluster_team FROM clusters WHERE name = NEW.cluster;
    SELECT team INTO sub_team FROM subscriptions WHERE name = NEW.subscription;
    PERFORM pg_notify('olmstead_events', json_build_object('type', 'cluster.reason', 'id', NEW.cluster,
        'subscription', NEW.subscription,
        'reason', CASE WHEN failed THEN json_build_object('code', 'Failed', 'subject', NEW.reason,
            'at', to_char(NEW.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END,
        'teams', CASE WHEN cluster_team IS NULL THEN '[]'::json ELSE json_build_array(cluster_team) END,
        'subscriptionTeam', sub_team)::text);
    RETURN NULL;
END;
$$;
