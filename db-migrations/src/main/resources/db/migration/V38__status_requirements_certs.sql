-- What OLM's CSV status shows besides the phase, as the agent reported it: {requirementStatus, webhooks,
-- certificates} (protocol status item field "csv"). NULL when the agent sent none (agents without the field).
ALTER TABLE subscription_status ADD COLUMN csv jsonb;
