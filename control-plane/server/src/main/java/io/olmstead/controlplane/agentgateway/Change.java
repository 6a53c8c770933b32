package io.olmstead.controlplane.agentgateway;

import java.util.Optional;

/**
 * One notification on {@link #CHANNEL} (from the V4 triggers, and the HyperShift watcher's
 * enrollments): what kind of row changed and its id, as {@code kind:id}.
 */
record Change(String kind, String id) {
  static final String CHANNEL = "olmstead_agent_changes";

  static Optional<Change> parse(String payload) {
    int colon = payload == null ? -1 : payload.indexOf(':');
    return colon <= 0
        ? Optional.empty()
        : Optional.of(new Change(payload.substring(0, colon), payload.substring(colon + 1)));
  }
}
