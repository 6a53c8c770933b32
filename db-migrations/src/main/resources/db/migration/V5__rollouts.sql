-- Fleet rollouts: a persisted state machine (rollout, its waves, its clusters), its history, and the approved
-- version per (subscription, cluster) that caps maxVersion in the desired state the agent gateway pushes.

CREATE TABLE rollouts (
    id                 text        PRIMARY KEY,
    subscription       text        NOT NULL,
    target_version     text        NOT NULL,
    from_versions      text[]      NOT NULL DEFAULT '{}',
    strategy           jsonb       NOT NULL,
    state              text        NOT NULL
                                   CHECK (state IN ('Progressing', 'Paused', 'Succeeded', 'Failed', 'Aborted',
                                                    'RolledBack')),
    -- failures accepted by whoever resumed; the budget counts failures beyond these
    accepted_failures  integer     NOT NULL DEFAULT 0,
    promote_requested  boolean     NOT NULL DEFAULT false,
    message            text,
    created_by         text        NOT NULL,
    started_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    -- bumped on every write: the engine and operator commands update only the version they read
    version            bigint      NOT NULL DEFAULT 1
);

-- one active rollout per subscription (a second one is refused with 409)
CREATE UNIQUE INDEX rollouts_one_active ON rollouts (subscription) WHERE state IN ('Progressing', 'Paused');
CREATE INDEX rollouts_state ON rollouts (state);

CREATE TABLE rollout_waves (
    rollout_id     text        NOT NULL REFERENCES rollouts (id) ON DELETE CASCADE,
    idx            integer     NOT NULL,
    name           text        NOT NULL,
    state          text        NOT NULL CHECK (state IN ('Pending', 'Open', 'Soaking', 'Succeeded')),
    opened_at      timestamptz,
    soaking_since  timestamptz,
    completed_at   timestamptz,
    PRIMARY KEY (rollout_id, idx)
);

CREATE TABLE rollout_clusters (
    rollout_id        text        NOT NULL REFERENCES rollouts (id) ON DELETE CASCADE,
    cluster           text        NOT NULL,
    wave              integer     NOT NULL,
    step              text        NOT NULL
                                  CHECK (step IN ('Pending', 'Progressing', 'Succeeded', 'Failed', 'Blocked',
                                                  'RolledBack')),
    previous_version  text,
    approved_version  text,
    approved_at       timestamptz,
    message           text,
    updated_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (rollout_id, cluster)
);

CREATE INDEX rollout_clusters_step ON rollout_clusters (rollout_id, step);

CREATE TABLE rollout_history (
    id          bigserial   PRIMARY KEY,
    rollout_id  text        NOT NULL REFERENCES rollouts (id) ON DELETE CASCADE,
    at          timestamptz NOT NULL DEFAULT now(),
    kind        text        NOT NULL,
    wave        text,
    cluster     text,
    message     text,
    actor       text        NOT NULL
);

CREATE INDEX rollout_history_rollout ON rollout_history (rollout_id, id);

-- The version a rollout approved for a cluster; desired maxVersion of that subscription there is this version.
CREATE TABLE rollout_approvals (
    subscription  text        NOT NULL,
    cluster       text        NOT NULL,
    version       text        NOT NULL,
    rollout_id    text        NOT NULL,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (subscription, cluster)
);

CREATE INDEX rollout_approvals_cluster ON rollout_approvals (cluster);

-- An approval change recomputes that cluster's desired state on every replica (see V4's channel).
CREATE TRIGGER rollout_approvals_notify_agents
    AFTER INSERT OR UPDATE OR DELETE ON rollout_approvals
    FOR EACH ROW EXECUTE FUNCTION olmstead_notify_agent_change('cluster', 'cluster');
