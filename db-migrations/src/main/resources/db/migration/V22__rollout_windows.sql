-- Rollouts and the fleet calendar (issue 16): a wave waits in WaitingForWindow while none of its clusters may change,
-- and a cluster that was failing before its approval and says nothing new is StillFailed (outside the budget).
ALTER TABLE rollout_waves DROP CONSTRAINT rollout_waves_state_check;
ALTER TABLE rollout_waves ADD CONSTRAINT rollout_waves_state_check
    CHECK (state IN ('Pending', 'Open', 'Soaking', 'WaitingForWindow', 'Succeeded'));

ALTER TABLE rollout_clusters DROP CONSTRAINT rollout_clusters_step_check;
ALTER TABLE rollout_clusters ADD CONSTRAINT rollout_clusters_step_check
    CHECK (step IN ('Pending', 'Progressing', 'Succeeded', 'Failed', 'Blocked', 'RolledBack', 'StillFailed'));
