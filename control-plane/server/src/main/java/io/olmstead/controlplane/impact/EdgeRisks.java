package io.olmstead.controlplane.impact;

import io.vertx.core.json.JsonArray;

/**
 * Where the fleet's remembered bad edges enter the impact report: the risky edges on a cluster's
 * upgrade path (each hop {@code {bundle, version}}) given the cluster's facts. {@link #NONE}
 * evaluates nothing; the report then says {@code riskyEdges.evaluated: false} and lists no edge.
 */
public interface EdgeRisks {
  EdgeRisks NONE =
      new EdgeRisks() {
        @Override
        public boolean evaluated() {
          return false;
        }

        @Override
        public JsonArray risks(String cluster, String fromVersion, JsonArray path) {
          return new JsonArray();
        }
      };

  /** Whether risky edges were looked up at all. */
  boolean evaluated();

  /**
   * The risky edges on {@code path} for {@code cluster}: {@code [{from, to, evidence...}]}, empty
   * when none.
   */
  JsonArray risks(String cluster, String fromVersion, JsonArray path);
}
