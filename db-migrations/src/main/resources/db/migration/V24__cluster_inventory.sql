-- The inventory each cluster's agent reports (issue 15, point 4). A report replaces the cluster's previous one:
-- the document as received (for GET /clusters/{name}/inventory) and one row per operator and per (operator, CRD)
-- (for the fleet-wide aggregate and the metrics, grouped by package and version without reading documents).
CREATE TABLE cluster_inventory (
    cluster      text        PRIMARY KEY REFERENCES clusters (name) ON DELETE CASCADE,
    reported_at  timestamptz NOT NULL DEFAULT now(),
    truncated    boolean     NOT NULL DEFAULT false,
    operators    jsonb       NOT NULL CHECK (jsonb_typeof(operators) = 'array')
);

CREATE TABLE cluster_inventory_operators (
    cluster              text    NOT NULL REFERENCES cluster_inventory (cluster) ON DELETE CASCADE,
    subscription         text    NOT NULL,
    package              text    NOT NULL,
    version              text    NOT NULL DEFAULT '',
    dependency_of        text,
    custom_resources     bigint  NOT NULL DEFAULT 0,
    pods                 integer NOT NULL DEFAULT 0,
    restarts             bigint  NOT NULL DEFAULT 0,
    requested_cpu_millis bigint  NOT NULL DEFAULT 0,
    requested_memory     bigint  NOT NULL DEFAULT 0,
    used_cpu_millis      bigint,
    used_memory          bigint,
    stack_pods           integer NOT NULL DEFAULT 0,
    stack_cpu_millis     bigint  NOT NULL DEFAULT 0,
    stack_memory         bigint  NOT NULL DEFAULT 0,
    stack_used_cpu       bigint,
    stack_used_memory    bigint,
    PRIMARY KEY (cluster, subscription)
);
CREATE INDEX cluster_inventory_operators_package ON cluster_inventory_operators (package, version);

CREATE TABLE cluster_inventory_crds (
    cluster       text   NOT NULL,
    subscription  text   NOT NULL,
    package       text   NOT NULL,
    crd           text   NOT NULL,
    kind          text   NOT NULL,
    count         bigint NOT NULL CHECK (count >= 0),
    PRIMARY KEY (cluster, subscription, crd),
    FOREIGN KEY (cluster, subscription) REFERENCES cluster_inventory_operators (cluster, subscription)
        ON DELETE CASCADE
);
CREATE INDEX cluster_inventory_crds_package ON cluster_inventory_crds (package, crd);
