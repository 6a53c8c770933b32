package io.olmstead.controlplane.edgerisk;

import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Records clusters' attempts at upgrade edges (I/O; on the caller's transaction). A failure is
 * always recorded (within the bounds); a success only on a risk that has a failure on record or in
 * the same batch, since only then does it lower a risk: the bounds are spent on evidence that
 * matters, not on every cluster of every rollout.
 */
public final class EdgeRecorder {
  /**
   * The rows one cluster may have within a team: one agent cannot spend its team's bound (its edges
   * are the last attempts of that cluster, so a real cluster seldom has more than a few).
   */
  public static final int MAX_PER_CLUSTER = 20;

  private final EdgeRiskStore store = new EdgeRiskStore();
  private final EdgeRiskStore.Bounds bounds;

  public EdgeRecorder(EdgeRiskSettings settings) {
    this.bounds =
        new EdgeRiskStore.Bounds(settings.maxPerEdge(), settings.maxPerTeam(), MAX_PER_CLUSTER);
  }

  /**
   * What was recorded: attempts kept, the failures among those offered, and attempts dropped past
   * the bounds.
   */
  public record Recorded(int kept, int failures, int dropped) {}

  public Future<Recorded> record(SqlClient client, List<Evidence> attempts) {
    if (attempts.isEmpty()) {
      return Future.succeededFuture(new Recorded(0, 0, 0));
    }
    // one attempt per team, edge and cluster in a batch: the last one
    Map<String, Evidence> last = new LinkedHashMap<>();
    attempts.forEach(
        e ->
            last.put(
                e.team() + "\n" + e.pkg() + "\n" + e.from() + "\n" + e.to() + "\n" + e.cluster(),
                e));
    List<Evidence> batch = new ArrayList<>(last.values());
    Set<String> failedNow =
        batch.stream().filter(Evidence::failed).map(Evidence::riskId).collect(Collectors.toSet());
    Set<String> successIds =
        batch.stream()
            .filter(e -> !e.failed())
            .map(Evidence::riskId)
            .filter(id -> !failedNow.contains(id))
            .collect(Collectors.toSet());
    return store
        .failing(client, successIds)
        .compose(
            failing -> {
              List<Evidence> kept =
                  batch.stream()
                      .filter(
                          e ->
                              e.failed()
                                  || failedNow.contains(e.riskId())
                                  || failing.contains(e.riskId()))
                      .toList();
              int failures = (int) kept.stream().filter(Evidence::failed).count();
              return store
                  .record(client, kept, bounds)
                  .map(n -> new Recorded(n, failures, kept.size() - n));
            });
  }
}
