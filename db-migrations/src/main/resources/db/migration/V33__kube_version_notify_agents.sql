-- A maturity hold depends on the Kubernetes version a cluster reports (portability/removed-api): a cluster whose
-- version changes gets its desired state computed again, as a label change does.
CREATE TRIGGER clusters_kube_version_notify_agents
    AFTER UPDATE ON clusters
    FOR EACH ROW WHEN (OLD.kubernetes_version IS DISTINCT FROM NEW.kubernetes_version)
    EXECUTE FUNCTION olmstead_notify_agent_change('cluster', 'name');
