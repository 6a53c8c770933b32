-- A rollout of several targets that ends with a consumer held (ProviderFailed) on a cluster that ran nothing of it
-- keeps it uninstalled there: an approval without a version whose withheld column says why. The desired state then
-- carries the subscription without maxVersion and with that reason (the agent installs nothing, keeps what runs),
-- until a later rollout approves the cluster or a new declared version replaces the subscription's approvals.
ALTER TABLE rollout_approvals ALTER COLUMN version DROP NOT NULL, ADD COLUMN withheld text,
    ADD CONSTRAINT rollout_approvals_version_or_withheld CHECK ((version IS NULL) <> (withheld IS NULL));
