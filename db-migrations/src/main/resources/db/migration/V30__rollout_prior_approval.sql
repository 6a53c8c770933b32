-- The approval a cluster had when it became a member of a rollout (NULL: none). A rollback sends a cluster that ran
-- nothing before the rollout (a fresh install, a cluster that joined mid-rollout) back to this approval, or removes
-- its approval when it had none, instead of leaving it approved at the target.
ALTER TABLE rollout_clusters ADD COLUMN prior_approval text;
