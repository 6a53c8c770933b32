package io.olmstead.controlplane.agentgateway;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live agent sessions on this replica, one per cluster (a newer connection replaces an older
 * one).
 */
final class SessionRegistry {
  private final Map<String, AgentSession> byCluster = new ConcurrentHashMap<>();

  /** Registers a session and returns the one it replaced, if any. */
  Optional<AgentSession> register(AgentSession session) {
    return Optional.ofNullable(byCluster.put(session.cluster(), session))
        .filter(old -> old != session);
  }

  void remove(AgentSession session) {
    byCluster.remove(session.cluster(), session);
  }

  Optional<AgentSession> get(String cluster) {
    return Optional.ofNullable(byCluster.get(cluster));
  }

  Collection<AgentSession> all() {
    return List.copyOf(byCluster.values());
  }

  int size() {
    return byCluster.size();
  }
}
