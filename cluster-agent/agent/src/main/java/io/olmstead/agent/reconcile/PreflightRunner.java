package io.olmstead.agent.reconcile;

import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.apispec.protocol.Preflight;
import io.olmstead.apispec.protocol.PreflightFinding;
import io.olmstead.apispec.protocol.PreflightRequest;
import io.olmstead.apispec.protocol.ProtocolVersions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs preflight checks off the channel's event loop, one at a time (they read the API server),
 * answering each request id once per connection. A check that cannot read the cluster answers
 * {@code Fail} with {@code ClusterUnreadable}: the control plane holds the cluster rather than
 * approve it blind.
 */
final class PreflightRunner implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PreflightRunner.class);

  private final String cluster;
  private final PreflightCheck check;
  private final Function<String, SubscriptionToReconcile> desired;
  private final Set<String> answered = ConcurrentHashMap.newKeySet();
  private final Executor executor;
  private volatile boolean closed;

  /** {@code executor} runs the checks one at a time (its owner shuts it down). */
  PreflightRunner(
      String cluster,
      PreflightCheck check,
      Function<String, SubscriptionToReconcile> desired,
      Executor executor) {
    this.cluster = cluster;
    this.check = check;
    this.desired = desired;
    this.executor = executor;
  }

  void submit(List<PreflightRequest> requests, Consumer<Preflight> answer) {
    for (PreflightRequest request : requests) {
      if (!answered.add(request.requestId())) {
        continue;
      }
      try {
        executor.execute(
            () -> {
              if (!closed) {
                answer.accept(run(request));
              }
            });
      } catch (RejectedExecutionException e) {
        return; // closing
      }
    }
  }

  void forget() {
    answered.clear();
  }

  private Preflight run(PreflightRequest request) {
    List<PreflightFinding> findings;
    try {
      findings = check.check(desired.apply(request.subscription()), request);
    } catch (ResourceException | RuntimeException e) {
      LOG.warn(
          "cluster {}: preflight of {} {} could not read the cluster: {}",
          cluster,
          request.subscription(),
          request.version(),
          e.getMessage());
      findings =
          List.of(
              PreflightRules.finding(
                  "ClusterUnreadable",
                  true,
                  null,
                  "the agent could not read the cluster: " + e.getMessage()));
    }
    return PreflightRules.answer(
        ProtocolVersions.CURRENT,
        request.requestId(),
        request.subscription(),
        request.version(),
        findings);
  }

  @Override
  public void close() {
    closed = true;
  }
}
