package io.olmstead.controlplane.agentgateway;

import java.util.HashMap;
import java.util.Map;

/**
 * Counts agent handshakes in progress (from the upgrade request to {@code welcome}, or to the end of a refused
 * credential lookup), in all, per source address and per credential, so that neither unauthenticated floods nor
 * sockets that never say hello can take the slots real agents need. The credential is counted only once it checked
 * out, so a bogus credential never holds a handshake slot. Thread-safe; every permit is released exactly once.
 */
final class HandshakeLimits {
  /** Why a handshake is turned away; {@code metric} is the label of {@code olmstead_agent_refused_connections}. */
  enum Refusal {
    PER_SOURCE("per-source", 429),
    PER_CREDENTIAL("per-credential", 429),
    BUSY("busy", 503);

    final String metric;
    final int status;

    Refusal(String metric, int status) {
      this.metric = metric;
      this.status = status;
    }
  }

  private final int total;
  private final int perSource;
  private final int perCredential;
  private final Map<String, Integer> bySource = new HashMap<>();
  private final Map<String, Integer> byCredential = new HashMap<>();
  private int inProgress;

  HandshakeLimits(int total, int perSource, int perCredential) {
    this.total = total;
    this.perSource = perSource;
    this.perCredential = perCredential;
  }

  /** Before the credential lookup: a permit counted against the source and the total, or a refused one. */
  synchronized Permit enter(String source) {
    if (bySource.getOrDefault(source, 0) >= perSource) {
      return new Permit(source, Refusal.PER_SOURCE);
    }
    if (inProgress >= total) {
      return new Permit(source, Refusal.BUSY);
    }
    bySource.merge(source, 1, Integer::sum);
    inProgress++;
    return new Permit(source, null);
  }

  synchronized int inProgress() {
    return inProgress;
  }

  private static void decrement(Map<String, Integer> counts, String key) {
    counts.computeIfPresent(key, (k, n) -> n <= 1 ? null : n - 1);
  }

  /** One handshake's hold on the limits (none when it was refused). */
  final class Permit {
    private final String source;
    private final Refusal refusal;
    private String credential;
    private boolean released;

    private Permit(String source, Refusal refusal) {
      this.source = source;
      this.refusal = refusal;
      this.released = refusal != null;
    }

    /** Why the handshake may not start, or null when it holds a slot. */
    Refusal refusal() {
      return refusal;
    }

    /** The credential checked out: counts it too, or refuses (and releases) when it has too many handshakes. */
    Refusal authenticated(String credentialKey) {
      synchronized (HandshakeLimits.this) {
        if (released) {
          return Refusal.BUSY;
        }
        if (byCredential.getOrDefault(credentialKey, 0) >= perCredential) {
          release();
          return Refusal.PER_CREDENTIAL;
        }
        byCredential.merge(credentialKey, 1, Integer::sum);
        credential = credentialKey;
        return null;
      }
    }

    void release() {
      synchronized (HandshakeLimits.this) {
        if (released) {
          return;
        }
        released = true;
        inProgress--;
        decrement(bySource, source);
        if (credential != null) {
          decrement(byCredential, credential);
        }
      }
    }
  }
}
