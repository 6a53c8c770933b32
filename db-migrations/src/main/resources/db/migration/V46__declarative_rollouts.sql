-- Declarative rollouts: the subscription row keeps what the user declared, and the engine never rewrites it.
-- rollout_strategy: the strategy (a rollout's `strategy` JSON) under which a change of the declared version rolls out
--   by itself; NULL: a declared change applies at once.
-- applied_version_kind/value: the version policy agents are told (outside a rollout's per-cluster approvals) while a
--   rollout moves the fleet to the declared version, or after it rolled back or failed; NULL: the declared policy.
ALTER TABLE subscriptions ADD COLUMN rollout_strategy jsonb;
ALTER TABLE subscriptions ADD COLUMN applied_version_kind text;
ALTER TABLE subscriptions ADD COLUMN applied_version_value text;
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_applied_version_check
  CHECK ((applied_version_kind IS NULL) = (applied_version_value IS NULL)
    AND (applied_version_kind IS NULL OR applied_version_kind IN ('pin', 'range', 'follow')));
