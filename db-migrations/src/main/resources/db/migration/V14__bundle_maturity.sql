-- Operator maturity reports (issue 15), computed once per catalog content digest and bundle: content under a digest
-- never changes, so neither does the report. Removed with the content (a deleted catalog's unshared content).
CREATE TABLE bundle_maturity (
    digest       text        NOT NULL REFERENCES catalog_contents (digest) ON DELETE CASCADE,
    package      text        NOT NULL,
    bundle       text        NOT NULL,
    -- the report as the API serves it without catalog name (several catalogs may share one content digest)
    report       jsonb       NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (digest, package, bundle)
);
