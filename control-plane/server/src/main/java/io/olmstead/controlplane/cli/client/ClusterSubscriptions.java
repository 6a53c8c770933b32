package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.List;

/**
 * The "Subscriptions:" block of {@code describe cluster}: what the cluster's agent last reported
 * for each subscription ({@code GET /clusters/NAME/subscriptions}), a table of version, target and
 * phase with the reason of each one not Succeeded. Pure apart from the printing.
 */
final class ClusterSubscriptions {
  private ClusterSubscriptions() {}

  static void print(JsonNode answer, PrintWriter out) {
    out.println("Subscriptions:");
    JsonNode items = answer.path("items");
    if (items.isEmpty()) {
      out.println("  <none>");
      return;
    }
    Table table =
        new Table(List.of("subscription", "package", "installed", "target", "phase", "reason"));
    for (JsonNode item : items) {
      String phase = Kind.text(item, "phase");
      table.row(
          List.of(
              Kind.text(item, "subscription"),
              Kind.text(item, "package"),
              Kind.text(item, "installedVersion"),
              Kind.text(item, "targetVersion"),
              phase,
              "Succeeded".equals(phase) ? "" : reason(item)));
    }
    table.render().lines().forEach(line -> out.println("  " + line));
  }

  /**
   * {@code RequiresApproval: etcdoperator.v0.9.4}: the agent's reason and message, cut to one short
   * line.
   */
  static String reason(JsonNode item) {
    String reason = Kind.text(item, "reason");
    String message = Kind.text(item, "message");
    String text = reason.isEmpty() ? message : message.isEmpty() ? reason : reason + ": " + message;
    return Output.cut(text.replace('\n', ' '), 80);
  }
}
