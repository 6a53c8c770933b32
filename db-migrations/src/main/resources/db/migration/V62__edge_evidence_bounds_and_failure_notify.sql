-- A desired-state run reads only the failing evidence of the packages and versions its clusters run.
CREATE INDEX edge_risk_observations_failing ON edge_risk_observations (package, from_version) WHERE failed;

-- The bound on one cluster's rows within a team is counted on every new row.
CREATE INDEX edge_risk_observations_team_cluster ON edge_risk_observations (team, cluster);

-- A failure recorded (a new row or a row that now says failed) republishes desired state, so clusters already sent
-- the edge's target are held without waiting for another change. One notification per package and transaction
-- (PostgreSQL folds equal payloads); each replica coalesces them into at most one publish a second.
CREATE FUNCTION olmstead_notify_edge_failed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('olmstead_agent_changes', 'edgefailed:' || NEW.package);
    RETURN NULL;
END;
$$;

CREATE TRIGGER edge_risk_observations_failed_notify_agents
    AFTER INSERT OR UPDATE ON edge_risk_observations
    FOR EACH ROW WHEN (NEW.failed) EXECUTE FUNCTION olmstead_notify_edge_failed();

-- A rollout's member remembers a withheld approval it had (V57: no version, a reason), so that a rollback restores it
-- instead of withdrawing the row.
ALTER TABLE rollout_clusters ADD COLUMN prior_withheld text;
