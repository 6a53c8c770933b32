-- Agent channel: per-cluster credentials (hashed), the channel's per-cluster bookkeeping (desired generation,
-- acked generation, last applied status seq), manual approvals, and change notifications (ids only) that let
-- every control plane replica push desired state promptly.

CREATE TABLE cluster_credentials (
    cluster          text        PRIMARY KEY REFERENCES clusters (name) ON DELETE CASCADE,
    credential_hash  bytea       NOT NULL UNIQUE,
    -- the enrollment token that minted it (for the audit trail); NULL when issued otherwise
    enrolled_with    text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    revoked_at       timestamptz
);

CREATE TABLE agent_channel_state (
    cluster             text        PRIMARY KEY REFERENCES clusters (name) ON DELETE CASCADE,
    -- the newest connection's session id and the replica holding it
    session             text,
    replica             text,
    connected_at        timestamptz,
    -- desired state: the generation grows whenever the content hash changes
    desired_generation  bigint      NOT NULL DEFAULT 0,
    desired_hash        text,
    acked_generation    bigint      NOT NULL DEFAULT 0,
    acked_at            timestamptz,
    -- status reports at or below this seq were applied already (replays change nothing)
    last_status_seq     bigint      NOT NULL DEFAULT 0
);

CREATE TABLE cluster_approvals (
    cluster       text        NOT NULL REFERENCES clusters (name) ON DELETE CASCADE,
    subscription  text        NOT NULL,
    bundle        text        NOT NULL,
    approved_by   text        NOT NULL,
    approved_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster, subscription)
);

-- Payload '<kind>:<id>' on channel olmstead_agent_changes; the gateway re-reads what it needs.
CREATE FUNCTION olmstead_notify_agent_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    row_id text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        row_id := to_jsonb(OLD) ->> TG_ARGV[1];
    ELSE
        row_id := to_jsonb(NEW) ->> TG_ARGV[1];
    END IF;
    PERFORM pg_notify('olmstead_agent_changes', TG_ARGV[0] || ':' || coalesce(row_id, ''));
    RETURN NULL;
END;
$$;

CREATE TRIGGER subscriptions_notify_agents
    AFTER INSERT OR UPDATE OR DELETE ON subscriptions
    FOR EACH ROW EXECUTE FUNCTION olmstead_notify_agent_change('subscription', 'name');

CREATE TRIGGER catalogs_notify_agents
    AFTER UPDATE ON catalogs
    FOR EACH ROW WHEN (OLD.current_revision IS DISTINCT FROM NEW.current_revision)
    EXECUTE FUNCTION olmstead_notify_agent_change('catalog', 'name');

CREATE TRIGGER catalog_revisions_notify_agents
    AFTER INSERT ON catalog_revisions
    FOR EACH ROW EXECUTE FUNCTION olmstead_notify_agent_change('catalog', 'catalog');

CREATE TRIGGER clusters_labels_notify_agents
    AFTER UPDATE ON clusters
    FOR EACH ROW WHEN (OLD.labels IS DISTINCT FROM NEW.labels)
    EXECUTE FUNCTION olmstead_notify_agent_change('cluster', 'name');

CREATE TRIGGER cluster_credentials_notify_agents
    AFTER UPDATE OR DELETE ON cluster_credentials
    FOR EACH ROW EXECUTE FUNCTION olmstead_notify_agent_change('credential', 'cluster');

CREATE TRIGGER cluster_approvals_notify_agents
    AFTER INSERT OR UPDATE ON cluster_approvals
    FOR EACH ROW EXECUTE FUNCTION olmstead_notify_agent_change('approval', 'cluster');
