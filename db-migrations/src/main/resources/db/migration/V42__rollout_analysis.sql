-- Analysis checks of rollouts: per rollout, wave, check and cluster, the measurements so far against Prometheus and
-- the check's status there (the rollout engine's leader writes them; the pure step reads them), and reusable check
-- templates per team (/api/v1/analysis-templates/{name}).
CREATE TABLE rollout_analysis (
    rollout_id     text             NOT NULL REFERENCES rollouts (id) ON DELETE CASCADE,
    wave           integer          NOT NULL,
    check_name     text             NOT NULL,
    cluster        text             NOT NULL,
    successes      integer          NOT NULL DEFAULT 0,
    failures       integer          NOT NULL DEFAULT 0,
    inconclusives  integer          NOT NULL DEFAULT 0,
    status         text             NOT NULL CHECK (status IN ('Running', 'Passed', 'Failed', 'Inconclusive')),
    -- the query as sent (variables substituted), the last value and why it counted as it did
    query          text             NOT NULL,
    last_value     double precision,
    last_reason    text,
    measured_at    timestamptz      NOT NULL,
    PRIMARY KEY (rollout_id, wave, check_name, cluster)
);

CREATE TABLE analysis_templates (
    team              text        NOT NULL,
    name              text        NOT NULL CHECK (name ~ '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$'),
    spec              jsonb       NOT NULL,
    resource_version  bigint      NOT NULL DEFAULT 1,
    created_by        text        NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (team, name)
);
