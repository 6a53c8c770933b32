-- Fleet-learned conditional edges: what each cluster's last attempt at an upgrade edge (package, from version, to
-- version) came to, with the cluster's facts at the time. One row per team, edge and cluster (a cluster's later attempt
-- replaces its earlier one); risk_id names the edge and the facts it is matched on (a hash, the same for every team).
-- team is '' for a subscription of no team.
CREATE TABLE edge_risk_observations (
    team          text        NOT NULL,
    package       text        NOT NULL,
    from_version  text        NOT NULL,
    to_version    text        NOT NULL,
    cluster       text        NOT NULL,
    risk_id       text        NOT NULL,
    facts         jsonb       NOT NULL CHECK (jsonb_typeof(facts) = 'object'),
    failed        boolean     NOT NULL,
    detail        text        CHECK (length(detail) <= 1024),
    source        text        NOT NULL,
    observed_at   timestamptz NOT NULL,
    PRIMARY KEY (team, package, from_version, to_version, cluster)
);

-- the engine looks evidence up by edge before it approves; the API by risk
CREATE INDEX edge_risk_observations_edge ON edge_risk_observations (package, to_version, from_version);
CREATE INDEX edge_risk_observations_risk ON edge_risk_observations (risk_id);

-- A person's acceptance of a risk for a team ('*': every team), valid for the failures observed before accepted_at.
CREATE TABLE edge_risk_acceptances (
    risk_id      text        NOT NULL,
    team         text        NOT NULL,
    accepted_by  text        NOT NULL,
    accepted_at  timestamptz NOT NULL,
    comment      text        CHECK (length(comment) <= 1024),
    PRIMARY KEY (risk_id, team)
);
