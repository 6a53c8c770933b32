-- A subscription's policy on its target bundle (issue 15): {"maturity": {forbid, maxSeverity, minCapability}}.
ALTER TABLE subscriptions ADD COLUMN requirements jsonb;
