-- Presence by replica lease: each replica renews one row per presence tick; a connected cluster is alive while the
-- replica holding its session (agent_channel_state.replica) renews its lease. Replaces one clusters-row update per
-- connected cluster per tick (6,667 row updates a second for 100,000 clusters) with one row per replica.
CREATE TABLE gateway_replicas (
  replica TEXT PRIMARY KEY,
  seen_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
