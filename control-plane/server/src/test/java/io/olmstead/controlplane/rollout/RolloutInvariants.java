package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What must hold for a finished rollout whatever happened to the replicas meanwhile, read from what
 * it stored: every member approved exactly once (history and audit log agree), waves opened and
 * completed in order with no cluster of a wave approved before the previous wave succeeded, and
 * every member's last report stored.
 */
final class RolloutInvariants {
  private final RolloutFixtures fx;
  private final String id;

  RolloutInvariants(RolloutFixtures fx, String id) {
    this.fx = fx;
    this.id = id;
  }

  /**
   * No cluster approved twice, none left out: one ClusterApproved per member, in history and in the
   * audit log.
   */
  void eachClusterApprovedOnce() {
    List<String> members =
        column("SELECT cluster FROM rollout_clusters WHERE rollout_id = ? ORDER BY cluster");
    List<String> approved =
        column(
            "SELECT cluster FROM rollout_history WHERE rollout_id = ? "
                + "AND kind = 'ClusterApproved' ORDER BY cluster");
    assertThat(approved)
        .as("ClusterApproved history rows, one per member")
        .containsExactlyElementsOf(members);
    // the audit log is written in the same transaction as each step: it names the same approvals
    List<String> audited = new ArrayList<>();
    for (Map<String, Object> row :
        fx.query(
            "SELECT detail::text AS detail FROM audit_log WHERE action = "
                + "'rollout.step' AND resource = ? ORDER BY id",
            "rollouts/" + id)) {
      JsonArray changes = new JsonObject((String) row.get("detail")).getJsonArray("changes");
      assertThat(changes.size())
          .as("audit summaries are cut at 50 changes; keep steps smaller")
          .isLessThan(50);
      changes.stream()
          .map(String::valueOf)
          .filter(c -> c.startsWith("ClusterApproved "))
          .forEach(c -> audited.add(c.substring(c.lastIndexOf(' ') + 1)));
    }
    assertThat(audited)
        .as("approvals in the audit log")
        .containsExactlyInAnyOrderElementsOf(members);
    assertThat(
            fx.count(
                "SELECT count(*) FROM rollout_clusters WHERE rollout_id = ? AND step = 'Succeeded'",
                id))
        .isEqualTo(members.size());
  }

  /**
   * No wave skipped: each wave opened once and succeeded once, in plan order, and each wave's
   * clusters approved only after the previous wave succeeded and after their own wave opened
   * (history ids are the commit order, as one engine at a time writes them).
   */
  void wavesInOrder() {
    List<String> waves = column("SELECT name FROM rollout_waves WHERE rollout_id = ? ORDER BY idx");
    assertThat(waves).hasSizeGreaterThan(2);
    assertThat(
            column(
                "SELECT wave FROM rollout_history WHERE rollout_id = ? AND kind = 'WaveOpened' ORDER BY id"))
        .as("waves opened, in order")
        .containsExactlyElementsOf(waves);
    assertThat(
            column(
                "SELECT wave FROM rollout_history WHERE rollout_id = ? AND kind = 'WaveSucceeded' "
                    + "ORDER BY id"))
        .as("waves succeeded, in order")
        .containsExactlyElementsOf(waves);
    assertThat(
            fx.count(
                "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND kind = 'WavePromoted'",
                id))
        .isZero();
    Map<String, Long> opened = ids("WaveOpened");
    Map<String, Long> succeeded = ids("WaveSucceeded");
    for (Map<String, Object> row :
        fx.query(
            "SELECT h.id, h.cluster, h.wave, w.idx FROM rollout_history h "
                + "JOIN rollout_clusters c ON c.rollout_id = h.rollout_id AND c.cluster = h.cluster "
                + "JOIN rollout_waves w ON w.rollout_id = h.rollout_id AND w.idx = c.wave "
                + "WHERE h.rollout_id = ? AND h.kind = 'ClusterApproved' AND h.wave = w.name",
            id)) {
      long at = ((Number) row.get("id")).longValue();
      int idx = ((Number) row.get("idx")).intValue();
      assertThat(at).as(row + " after its wave opened").isGreaterThan(opened.get(waves.get(idx)));
      if (idx > 0) {
        assertThat(at)
            .as(row + " after wave " + waves.get(idx - 1) + " succeeded")
            .isGreaterThan(succeeded.get(waves.get(idx - 1)));
      }
    }
    assertThat(
            fx.count(
                "SELECT count(*) FROM rollout_history h JOIN rollout_clusters c ON c.rollout_id = "
                    + "h.rollout_id AND c.cluster = h.cluster JOIN rollout_waves w ON w.rollout_id = h.rollout_id "
                    + "AND w.idx = c.wave WHERE h.rollout_id = ? AND h.kind = 'ClusterApproved' AND h.wave = w.name",
                id))
        .as("every approval names the member's own wave")
        .isEqualTo(fx.count("SELECT count(*) FROM rollout_clusters WHERE rollout_id = ?", id));
  }

  /**
   * No status lost: every member's stored status is its agent's last report (installed the target,
   * Succeeded).
   */
  void everyLastReportStored(String subscription, String target) {
    List<Map<String, Object>> rows =
        fx.query(
            "SELECT c.cluster, s.installed_version, s.phase, s.message "
                + "FROM rollout_clusters c LEFT JOIN subscription_status s ON s.cluster = c.cluster AND s.subscription = ? "
                + "WHERE c.rollout_id = ? ORDER BY c.cluster",
            subscription,
            id);
    assertThat(rows)
        .isNotEmpty()
        .allSatisfy(
            row -> {
              assertThat(row.get("installed_version")).as(row.toString()).isEqualTo(target);
              assertThat(row.get("phase")).as(row.toString()).isEqualTo("Succeeded");
              assertThat(row.get("message"))
                  .as(row.toString())
                  .isEqualTo("install strategy completed with no errors");
            });
  }

  private Map<String, Long> ids(String kind) {
    Map<String, Long> out = new HashMap<>();
    fx.query("SELECT wave, id FROM rollout_history WHERE rollout_id = ? AND kind = ?", id, kind)
        .forEach(r -> out.put((String) r.get("wave"), ((Number) r.get("id")).longValue()));
    return out;
  }

  private List<String> column(String sql) {
    return fx.query(sql, id).stream().map(r -> (String) r.values().iterator().next()).toList();
  }
}
