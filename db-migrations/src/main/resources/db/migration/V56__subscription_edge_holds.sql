-- Edge risks outside rollouts: a subscription that no rollout moves is held on a cluster whose next edge (from the
-- installed version to the one its policy leads to) is at risk for the cluster's facts. The replica that publishes the
-- cluster's desired state writes what it holds there (the agent is told the installed version), so that the fleet
-- matrix and the cluster views name the risk; a row goes when the cluster is published without the hold.
CREATE TABLE subscription_edge_holds (
    cluster       text        NOT NULL,
    subscription  text        NOT NULL,
    risk_id       text        NOT NULL,
    from_version  text        NOT NULL,
    to_version    text        NOT NULL,
    message       text        NOT NULL,
    held_at       timestamptz NOT NULL,
    PRIMARY KEY (cluster, subscription)
);

CREATE INDEX subscription_edge_holds_subscription ON subscription_edge_holds (subscription);

-- Accepting or clearing a risk lets held clusters move: every replica republishes its clusters' desired state.
CREATE FUNCTION olmstead_notify_edge_risk() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('olmstead_agent_changes', 'edgerisk:');
    RETURN NULL;
END;
$$;

CREATE TRIGGER edge_risk_acceptances_notify_agents
    AFTER INSERT OR UPDATE OR DELETE ON edge_risk_acceptances
    FOR EACH STATEMENT EXECUTE FUNCTION olmstead_notify_edge_risk();

CREATE TRIGGER edge_risk_observations_cleared_notify_agents
    AFTER DELETE ON edge_risk_observations
    FOR EACH STATEMENT EXECUTE FUNCTION olmstead_notify_edge_risk();
