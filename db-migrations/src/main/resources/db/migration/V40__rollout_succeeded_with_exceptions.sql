-- A rollout whose waves all completed while some of its clusters do not run the target (held by their preflight or
-- Upgradeable=False, failed within the budget, still failing) ends SucceededWithExceptions, its message naming them.
ALTER TABLE rollouts DROP CONSTRAINT rollouts_state_check;
ALTER TABLE rollouts ADD CONSTRAINT rollouts_state_check
    CHECK (state IN ('Progressing', 'Paused', 'Succeeded', 'SucceededWithExceptions', 'Failed', 'Aborted',
                     'RolledBack'));
