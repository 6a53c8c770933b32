-- A rollout of several subscriptions is stored as one rollout per target, linked: group_id is the id of the first
-- target's rollout (the id the API answers with), group_index each target's place in dependency order (providers
-- first). Rollouts of one subscription have neither.
ALTER TABLE rollouts ADD COLUMN group_id text, ADD COLUMN group_index integer,
    ADD CONSTRAINT rollouts_group_index CHECK ((group_id IS NULL) = (group_index IS NULL));

CREATE INDEX rollouts_group ON rollouts (group_id, group_index) WHERE group_id IS NOT NULL;
