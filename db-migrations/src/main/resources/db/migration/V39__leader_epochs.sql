-- Fencing for the leader-only tasks (rollout engine, signal evaluator, HyperShift watcher, adoption sampler): each
-- replica that takes a task's advisory lock bumps the task's epoch under the lock, and every leader-only write checks,
-- in its own transaction, that the epoch it took is still the current one (holding the row FOR SHARE until commit).
-- A replica whose lock session ended without its knowing (a failover, a half-open path) writes nothing once another
-- replica has taken the lock.
CREATE TABLE leader_epochs (
    lock_key  bigint PRIMARY KEY,
    epoch     bigint NOT NULL
);
