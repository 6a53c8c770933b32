-- The SHA-256 of the stored inventory document and truncated flag (issue 15): a report equal to the stored one (an
-- agent reconnecting sends its inventory again) only refreshes reported_at, without rewriting the operator and CRD rows.
ALTER TABLE cluster_inventory ADD COLUMN report_hash bytea;
