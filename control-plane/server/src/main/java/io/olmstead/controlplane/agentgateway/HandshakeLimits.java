package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.problem.Problems;
import io.vertx.core.http.HttpServerResponse;
import java.util.HashMap;
import java.util.Map;

/**
 * Counts agent handshakes in progress (from the upgrade request to {@code welcome}, or to the end
 * of a refused credential lookup) per source address, and, once the credential checked out, per
 * credential and in all: a bogus credential never holds one of the handshake slots real agents
 * need, and sockets that never say hello hold at most {@code perCredential} of them. Credential
 * lookups in progress are bounded too (per source, and in all by the same total), so a flood cannot
 * queue unbounded work on the database. One instance serves both agent endpoints ({@code
 * /agent/connect} and the hosted pool's {@code /agent/pool}): a source's handshakes count against
 * it on either. Thread-safe; a permit is released exactly once.
 */
public final class HandshakeLimits {
  /**
   * Why a handshake is turned away; {@code metric} is the label of {@code
   * olmstead_agent_refused_connections}.
   */
  public enum Refusal {
    PER_SOURCE(
        "per-source",
        429,
        "too many agent handshakes from this address at once; retry with backoff"),
    PER_CREDENTIAL(
        "per-credential",
        429,
        "this credential already has handshakes in progress; retry with backoff"),
    BUSY("busy", 503, "too many agents are connecting at once; retry with backoff");

    final String metric;
    final int status;
    private final String detail;

    Refusal(String metric, int status, String detail) {
      this.metric = metric;
      this.status = status;
      this.detail = detail;
    }

    /** Answers the refused upgrade: 429 or 503 problem+json with {@code Retry-After}. */
    public void send(HttpServerResponse response) {
      response.putHeader("Retry-After", "5");
      Problems.send(
          response,
          status == 429
              ? Problems.problem(429, "too-many-requests", "Too many requests", detail)
              : Problems.problem(503, "unavailable", "Busy", detail));
    }
  }

  private final int total;
  private final int perSource;
  private final int perCredential;
  private final Map<String, Integer> bySource = new HashMap<>();
  private final Map<String, Integer> byCredential = new HashMap<>();
  private final Map<String, Integer> lookupsBySource = new HashMap<>();
  private int inProgress;
  private int lookups;

  /**
   * Credential lookups at once from one address: each is a database query, and a flood of them
   * (bogus credentials) would otherwise queue ahead of every real agent's handshake in the
   * connection pool. At 10 ms a lookup this still admits hundreds of connects per second from one
   * address (a hosted agent pool, a load test).
   */
  static final int LOOKUPS_PER_SOURCE = 8;

  HandshakeLimits(int total, int perSource, int perCredential) {
    this.total = total;
    this.perSource = perSource;
    this.perCredential = perCredential;
  }

  /**
   * Before the credential lookup: a permit counted against the source (and the lookups), or a
   * refused one.
   */
  public synchronized Permit enter(String source) {
    if (bySource.getOrDefault(source, 0) >= perSource
        || lookupsBySource.getOrDefault(source, 0) >= LOOKUPS_PER_SOURCE) {
      return new Permit(source, Refusal.PER_SOURCE);
    }
    if (lookups >= total) {
      return new Permit(source, Refusal.BUSY);
    }
    bySource.merge(source, 1, Integer::sum);
    lookupsBySource.merge(source, 1, Integer::sum);
    lookups++;
    return new Permit(source, null);
  }

  synchronized int inProgress() {
    return inProgress;
  }

  private static void decrement(Map<String, Integer> counts, String key) {
    counts.computeIfPresent(key, (k, n) -> n <= 1 ? null : n - 1);
  }

  /** One handshake's hold on the limits (none when it was refused). */
  public final class Permit {
    private final String source;
    private final Refusal refusal;
    private String credential;
    private boolean lookingUp;
    private boolean released;

    private Permit(String source, Refusal refusal) {
      this.source = source;
      this.refusal = refusal;
      this.released = refusal != null;
      this.lookingUp = refusal == null;
    }

    /** Why the handshake may not start, or null when it holds a slot. */
    public Refusal refusal() {
      return refusal;
    }

    /**
     * The credential checked out: takes a handshake slot counted against it, or refuses (and
     * releases) when it has too many handshakes or every slot is taken.
     */
    public Refusal authenticated(String credentialKey) {
      synchronized (HandshakeLimits.this) {
        if (released) {
          return Refusal.BUSY;
        }
        endLookup();
        Refusal refusal =
            byCredential.getOrDefault(credentialKey, 0) >= perCredential
                ? Refusal.PER_CREDENTIAL
                : inProgress >= total ? Refusal.BUSY : null;
        if (refusal != null) {
          release();
          return refusal;
        }
        byCredential.merge(credentialKey, 1, Integer::sum);
        credential = credentialKey;
        inProgress++;
        return null;
      }
    }

    private void endLookup() {
      if (lookingUp) {
        lookingUp = false;
        lookups--;
        decrement(lookupsBySource, source);
      }
    }

    public void release() {
      synchronized (HandshakeLimits.this) {
        if (released) {
          return;
        }
        released = true;
        decrement(bySource, source);
        endLookup();
        if (credential != null) {
          decrement(byCredential, credential);
          inProgress--;
        }
      }
    }
  }
}
