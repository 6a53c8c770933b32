package io.olmstead.controlplane.rollout;

import io.micrometer.core.instrument.MeterRegistry;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.db.Notifications;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event stream behind {@code GET /events}: cluster, subscription and rollout changes from any
 * replica, announced by the V8 triggers on {@value #CHANNEL} with the teams they concern, and
 * {@code rollout.cluster} when a rollout holds or fails a cluster with a reason (V54: the cluster,
 * the history kind and {@code reason {code, subject, at}}), and {@code cluster.reason} when an
 * agent alone changes its cluster's reason (V58: a subscription's install becomes or stops being
 * {@code Failed}, the agent goes away or comes back), coalesced per cluster and subscription and
 * sent at most {@value #REASONS_PER_FLUSH} every {@value #REASON_FLUSH_MILLIS} ms ({@link
 * CoalescedEvents}). Each client gets only the events of what it may see: a team-scoped token those
 * of its teams, a token without a team scope all of them. Events carry ids; clients re-read what
 * they show. A client that cannot keep up (more than {@link #MAX_BUFFERED_BYTES} unwritten) is
 * disconnected rather than buffered without bound.
 *
 * <p>A stream lasts only as long as its token: a revocation announced on {@link
 * Tokens#REVOKED_CHANNEL} ends that token's streams at once, and every {@link #RECHECK_MILLIS} one
 * query re-reads all open streams' tokens (a missed notification, a changed role or teams). One
 * token holds at most {@link #MAX_STREAMS_PER_TOKEN} streams.
 */
public final class RolloutEvents {
  static final String CHANNEL = "olmstead_events";
  static final long MAX_BUFFERED_BYTES = 256 * 1024;
  static final int MAX_STREAMS_PER_TOKEN = 16;
  static final long RECHECK_MILLIS = 2_000;
  static final String CLUSTER_REASON = "cluster.reason";

  /**
   * {@code cluster.reason} events are sent every this many ms, at most {@link #REASONS_PER_FLUSH}
   * at a time.
   */
  static final long REASON_FLUSH_MILLIS = 1_000;

  static final int REASONS_PER_FLUSH = 200;
  static final int MAX_PENDING_REASONS = 20_000;
  private static final Logger LOG = LoggerFactory.getLogger(RolloutEvents.class);

  private final Vertx vertx;
  private final Map<HttpServerResponse, Principal> clients = new ConcurrentHashMap<>();
  private final Map<UUID, Integer> streamsPerToken = new ConcurrentHashMap<>();
  private final AtomicLong sequence = new AtomicLong();
  private final StreamTokens tokens;
  private final AtomicBoolean checking = new AtomicBoolean();
  private final CoalescedEvents reasons;
  private long recheckTimer = -1;
  private long reasonTimer = -1;

  public RolloutEvents(
      Vertx vertx, Pool pool, Notifications notifications, MeterRegistry registry) {
    this.vertx = vertx;
    this.reasons =
        new CoalescedEvents(REASONS_PER_FLUSH, MAX_PENDING_REASONS, registry, CLUSTER_REASON);
    this.tokens = new StreamTokens(pool);
    notifications.subscribe(CHANNEL, this::notified);
    // a revocation missed while the connection was away is caught by the next re-check of every
    // stream's token
    notifications.subscribe(Tokens.REVOKED_CHANNEL, this::revoked);
  }

  public Future<Void> start() {
    recheckTimer = vertx.setPeriodic(RECHECK_MILLIS, id -> recheck());
    reasonTimer =
        vertx.setPeriodic(
            REASON_FLUSH_MILLIS,
            id -> reasons.drain().forEach(p -> emit(p.event(), p.teams(), p.alsoTeams())));
    return Future.succeededFuture();
  }

  public Future<Void> close() {
    vertx.cancelTimer(recheckTimer);
    vertx.cancelTimer(reasonTimer);
    clients.keySet().forEach(this::end);
    return Future.succeededFuture();
  }

  private void revoked(String tokenId) {
    clients.forEach(
        (client, caller) -> {
          if (tokenId.equals(String.valueOf(caller.tokenId()))) {
            end(client);
          }
        });
  }

  /**
   * Ends every stream whose token is no longer live or no longer grants what it did when the stream
   * opened.
   */
  private void recheck() {
    if (clients.isEmpty() || !checking.compareAndSet(false, true)) {
      return;
    }
    Set<UUID> ids = new HashSet<>();
    // an OIDC caller has no api_tokens row: its stream lasts as long as the connection (its token
    // is not re-read)
    clients.values().stream()
        .filter(caller -> !caller.sso())
        .forEach(caller -> ids.add(caller.tokenId()));
    tokens
        .live(ids)
        .onComplete(
            ar -> {
              checking.set(false);
              if (ar.failed()) {
                LOG.warn(
                    "could not re-check the tokens of open event streams: {}",
                    ar.cause().toString());
                return;
              }
              clients.forEach(
                  (client, caller) -> {
                    StreamTokens.Grant grant = ar.result().get(caller.tokenId());
                    // a stream opened while the query ran, with a token it did not ask about, waits
                    // for the next check
                    if (ids.contains(caller.tokenId())
                        && (grant == null || !grant.matches(caller))) {
                      end(client);
                    }
                  });
            });
  }

  private void notified(String payload) {
    JsonObject event;
    try {
      event = new JsonObject(payload);
    } catch (RuntimeException e) {
      LOG.warn("ignoring a malformed event notification");
      return;
    }
    JsonArray teams = event.getJsonArray("teams", new JsonArray());
    JsonObject out =
        new JsonObject().put("type", event.getString("type")).put("id", event.getString("id"));
    // a rollout.cluster event (V54) also names the cluster, the history kind and the reason {code,
    // subject, at}
    for (String key : List.of("cluster", "kind", "reason")) {
      if (event.getValue(key) != null) {
        out.put(key, event.getValue(key));
      }
    }
    List<String> teamList = teams.stream().map(String::valueOf).toList();
    if (!CLUSTER_REASON.equals(event.getString("type"))) {
      emit(out, teamList, List.of());
      return;
    }
    // a cluster's reason changed through its agent alone (V58): coalesced per cluster and
    // subscription, a bounded
    // number a second; the reason is null when the cluster no longer has it
    String subscription = event.getString("subscription");
    out.put("subscription", subscription).put("reason", event.getValue("reason"));
    List<String> also =
        subscription == null
            ? List.of()
            : Collections.singletonList(event.getString("subscriptionTeam"));
    boolean held =
        reasons.offer(
            out.getString("id") + '\u0000' + subscription,
            new CoalescedEvents.Pending(out, teamList, also));
    long dropped = held ? 0 : reasons.droppedSinceWarning(System.nanoTime());
    if (dropped > 0) {
      LOG.warn(
          "{} {} events dropped: {} clusters and subscriptions already wait to be sent "
              + "(olmstead_events_dropped_total)",
          dropped,
          CLUSTER_REASON,
          reasons.pending());
    }
  }

  /**
   * Streams the events {@code caller} may see to this response until the client goes away or its
   * token is revoked; a 429 {@link ApiException} when the token already holds {@link
   * #MAX_STREAMS_PER_TOKEN} streams.
   */
  public void follow(HttpServerResponse response, Principal caller) {
    boolean[] admitted = {false};
    streamsPerToken.compute(
        caller.tokenId(),
        (id, open) -> {
          int count = open == null ? 0 : open;
          if (count >= MAX_STREAMS_PER_TOKEN) {
            return open;
          }
          admitted[0] = true;
          return count + 1;
        });
    if (!admitted[0]) {
      throw new ApiException(
          429,
          "too-many-requests",
          "Too Many Requests",
          "this token already has "
              + MAX_STREAMS_PER_TOKEN
              + " open event streams; close one first",
          null);
    }
    response.setWriteQueueMaxSize((int) MAX_BUFFERED_BYTES);
    response
        .setChunked(true)
        .putHeader("Content-Type", "text/event-stream")
        .putHeader("Cache-Control", "no-cache")
        .putHeader("X-Accel-Buffering", "no");
    response.write(": connected\n\n");
    clients.put(response, caller);
    long ping = vertx.setPeriodic(15_000, id -> send(response, ": ping\n\n"));
    response.closeHandler(
        v -> {
          drop(response);
          vertx.cancelTimer(ping);
        });
    // ending keeps an HTTP/1.1 connection open, so the close handler may never run: stop pinging at
    // the end too
    response.endHandler(v -> vertx.cancelTimer(ping));
    response.exceptionHandler(e -> drop(response));
  }

  /** Forgets a stream (once: a stream counts against its token's limit until then). */
  private void drop(HttpServerResponse response) {
    Principal caller = clients.remove(response);
    if (caller != null) {
      streamsPerToken.computeIfPresent(caller.tokenId(), (id, open) -> open <= 1 ? null : open - 1);
    }
  }

  private void end(HttpServerResponse response) {
    drop(response);
    if (!response.closed() && !response.ended()) {
      response.end();
    }
  }

  public int clients() {
    return clients.size();
  }

  /**
   * Sends {@code event} to every client that may see one of {@code teams} and every one of {@code
   * alsoTeams} (an event of no team: unscoped ones).
   */
  void emit(JsonObject event, List<String> teams, List<String> alsoTeams) {
    String frame =
        "id: "
            + sequence.incrementAndGet()
            + "\nevent: "
            + event.getString("type")
            + "\ndata: "
            + event.encode()
            + "\n\n";
    clients.forEach(
        (client, caller) -> {
          if (!caller.teamScoped()
              || (teams.stream().anyMatch(caller::mayAccessTeam)
                  && alsoTeams.stream().allMatch(caller::mayAccessTeam))) {
            send(client, frame);
          }
        });
  }

  private void send(HttpServerResponse response, String frame) {
    if (response.closed() || response.ended()) {
      drop(response);
      return;
    }
    // writeQueueFull: the per-connection buffer (MAX_BUFFERED_BYTES) is spent; drop the slow client
    if (response.writeQueueFull()) {
      drop(response);
      response.reset();
      return;
    }
    response.write(frame);
  }
}
