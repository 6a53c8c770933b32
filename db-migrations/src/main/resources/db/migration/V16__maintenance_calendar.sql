-- The fleet's calendar (issue 16): maintenance windows and change freezes, fleet-wide like catalogs.
-- The spec is validated by the control plane (cron, IANA zone, duration; start < end) before it is stored.
CREATE TABLE maintenance_windows (
    name              text        PRIMARY KEY
                                  CHECK (name ~ '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$'),
    spec              jsonb       NOT NULL,
    resource_version  bigint      NOT NULL DEFAULT 1,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE freezes (
    name              text        PRIMARY KEY
                                  CHECK (name ~ '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$'),
    spec              jsonb       NOT NULL,
    resource_version  bigint      NOT NULL DEFAULT 1,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);
