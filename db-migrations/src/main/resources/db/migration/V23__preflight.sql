-- Preflight checks (issue 16): the control plane asks a cluster's agent, through the desired state, whether a target
-- version of a subscription could be installed there now; the agent answers with a verdict and named findings.
-- One row per (subscription, cluster, version, requester): requester is 'preview' or the id of the rollout that asked.
CREATE TABLE preflight_checks (
    subscription  text        NOT NULL REFERENCES subscriptions (name) ON DELETE CASCADE,
    cluster       text        NOT NULL REFERENCES clusters (name) ON DELETE CASCADE,
    version       text        NOT NULL,
    requester     text        NOT NULL,
    -- a new id for every (re-)request: an answer counts only for the request it names
    request_id    text        NOT NULL UNIQUE,
    bundle        text,
    requested_at  timestamptz NOT NULL DEFAULT now(),
    answered_at   timestamptz,
    verdict       text        CHECK (verdict IN ('Pass', 'Warn', 'Fail')),
    findings      jsonb       NOT NULL DEFAULT '[]',
    PRIMARY KEY (subscription, cluster, version, requester)
);

CREATE INDEX preflight_checks_open ON preflight_checks (cluster) WHERE answered_at IS NULL;

-- A new or renewed request recomputes that cluster's desired state on every replica (see V4's channel).
CREATE TRIGGER preflight_checks_notify_agents
    AFTER INSERT ON preflight_checks
    FOR EACH ROW EXECUTE FUNCTION olmstead_notify_agent_change('cluster', 'cluster');
CREATE TRIGGER preflight_checks_renewed_notify_agents
    AFTER UPDATE ON preflight_checks
    FOR EACH ROW WHEN (OLD.request_id IS DISTINCT FROM NEW.request_id)
    EXECUTE FUNCTION olmstead_notify_agent_change('cluster', 'cluster');

-- What olm-core's CRD schema change rules do to an upgrade of this subscription: Strict blocks it on a breaking
-- finding, Warn reports the findings in the status, None (today's behaviour, the default) does not apply them.
ALTER TABLE subscriptions ADD COLUMN crd_upgrade_safety text NOT NULL DEFAULT 'None'
    CHECK (crd_upgrade_safety IN ('Strict', 'Warn', 'None'));
