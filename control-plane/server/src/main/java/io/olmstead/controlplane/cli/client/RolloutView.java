package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * How a rollout reads on a terminal: a headline and one progress bar per wave, in the states the
 * API and the dashboard show (a wave of a rolled-back rollout that had opened says RolledBack).
 * Failed and blocked (held) clusters are counted apart: a blocked cluster did not fail, it waits.
 * Pure, unit-tested.
 */
final class RolloutView {
  static final int BAR_WIDTH = 20;

  /** The states a rollout never leaves. */
  static final Set<String> ENDED =
      Set.of("Succeeded", "SucceededWithExceptions", "Failed", "Aborted", "RolledBack");

  private RolloutView() {}

  /**
   * {@code [####!!~~------------]}: {@code #} succeeded, {@code !} failed, {@code ~} blocked,
   * {@code -} the rest.
   */
  static String bar(int succeeded, int failed, int total) {
    return bar(succeeded, failed, 0, total);
  }

  static String bar(int succeeded, int failed, int blocked, int total) {
    if (total <= 0) {
      return "[" + "-".repeat(BAR_WIDTH) + "]";
    }
    int ok = Math.min(BAR_WIDTH, (int) Math.floor((double) succeeded * BAR_WIDTH / total));
    int bad = share(failed, total, BAR_WIDTH - ok);
    int held = share(blocked, total, BAR_WIDTH - ok - bad);
    return "["
        + "#".repeat(ok)
        + "!".repeat(bad)
        + "~".repeat(held)
        + "-".repeat(BAR_WIDTH - ok - bad - held)
        + "]";
  }

  // at least one mark for any count above zero, so one failure among many still shows
  private static int share(int count, int total, int room) {
    return count == 0 || room <= 0
        ? 0
        : Math.max(1, Math.min(room, (int) Math.round((double) count * BAR_WIDTH / total)));
  }

  /**
   * The wave's state as the dashboard shows it: RolledBack for a wave that opened in a rolled-back
   * rollout.
   */
  static String waveState(JsonNode rollout, JsonNode wave) {
    boolean opened =
        wave.hasNonNull("openedAt") || !"Pending".equals(wave.path("state").asText("Pending"));
    return "RolledBack".equals(rollout.path("state").asText()) && opened
        ? "RolledBack"
        : wave.path("state").asText();
  }

  /** The headline and the waves, each line ending in a newline. */
  static String render(JsonNode rollout) {
    JsonNode counts = rollout.path("counts");
    StringBuilder out = new StringBuilder();
    out.append("Rollout ")
        .append(rollout.path("id").asText())
        .append(": ")
        .append(rollout.path("subscription").asText())
        .append(" -> ")
        .append(rollout.path("targetVersion").asText())
        .append("   ")
        .append(rollout.path("state").asText())
        .append("   ")
        .append(counts.path("succeeded").asInt())
        .append('/')
        .append(counts.path("clusters").asInt())
        .append(" succeeded, ")
        .append(counts.path("failed").asInt())
        .append(" failed")
        .append(
            counts.path("blocked").asInt() > 0
                ? ", " + counts.path("blocked").asInt() + " blocked"
                : "")
        .append(
            counts.path("rolledBack").asInt() > 0
                ? ", " + counts.path("rolledBack").asInt() + " rolled back"
                : "")
        .append(
            counts.path("waitingForApproval").asInt() > 0
                ? ", " + counts.path("waitingForApproval").asInt() + " waiting for approval"
                : "")
        .append('\n');
    int nameWidth = 4;
    for (JsonNode wave : rollout.path("waves")) {
      nameWidth = Math.max(nameWidth, wave.path("name").asText().length());
    }
    for (JsonNode wave : rollout.path("waves")) {
      int total = wave.path("clusters").asInt();
      String name = wave.path("name").asText();
      int failed = wave.path("failed").asInt();
      int blocked = wave.path("blocked").asInt();
      out.append("  ")
          .append(name)
          .append(" ".repeat(nameWidth - name.length() + 2))
          .append(bar(wave.path("succeeded").asInt(), failed, blocked, total))
          .append(' ')
          .append(String.format("%4d/%-4d", wave.path("succeeded").asInt(), total))
          .append(failed > 0 ? "  " + failed + " failed" : "")
          .append(blocked > 0 ? "  " + blocked + " blocked" : "")
          .append(
              wave.path("rolledBack").asInt() > 0
                  ? "  " + wave.path("rolledBack").asInt() + " rolled back"
                  : "")
          .append("  ")
          .append(waveState(rollout, wave))
          .append('\n');
    }
    if (rollout.path("targets").size() > 0) {
      // a rollout of several targets: each in the order every cluster takes them (providers first)
      out.append("  targets (in the order each cluster takes them):\n");
      int i = 1;
      for (JsonNode t : rollout.path("targets")) {
        JsonNode c = t.path("counts");
        out.append("    ")
            .append(i++)
            .append(". ")
            .append(t.path("subscription").asText())
            .append(" -> ")
            .append(t.path("targetVersion").asText())
            .append("   ")
            .append(t.path("state").asText())
            .append("   ")
            .append(c.path("succeeded").asInt())
            .append('/')
            .append(c.path("clusters").asInt())
            .append(" succeeded")
            .append(c.path("failed").asInt() > 0 ? ", " + c.path("failed").asInt() + " failed" : "")
            .append(c.path("blocked").asInt() > 0 ? ", " + c.path("blocked").asInt() + " held" : "")
            .append("   (")
            .append(t.path("rollout").asText())
            .append(")\n");
      }
    }
    if (rollout.hasNonNull("message") && !rollout.path("message").asText().isBlank()) {
      out.append("  message: ")
          .append(rollout.path("message").asText().replace('\n', ' '))
          .append('\n');
    }
    return out.toString();
  }

  /**
   * The clusters of a page of {@code GET /rollouts/ID/clusters} that are not moving for a known
   * reason, one line each under a {@code CLUSTER WAVE STATE REASON} header, at most {@code max}
   * (then how many more); empty when none.
   */
  static String reasons(JsonNode clusters, int max) {
    List<JsonNode> held = new ArrayList<>();
    clusters
        .path("items")
        .forEach(
            c -> {
              if (c.path("reason").hasNonNull("message")) {
                held.add(c);
              }
            });
    if (held.isEmpty()) {
      return "";
    }
    List<JsonNode> shown = held.subList(0, Math.min(max, held.size()));
    int name = "CLUSTER".length();
    int wave = "WAVE".length();
    int state = "STATE".length();
    for (JsonNode c : shown) {
      name = Math.max(name, c.path("name").asText().length());
      wave = Math.max(wave, c.path("wave").asText().length());
      state = Math.max(state, c.path("state").asText().length());
    }
    String row = "  %-" + name + "s  %-" + wave + "s  %-" + state + "s  %s%n";
    StringBuilder out = new StringBuilder(String.format(row, "CLUSTER", "WAVE", "STATE", "REASON"));
    for (JsonNode c : shown) {
      out.append(
          String.format(
              row,
              c.path("name").asText(),
              c.path("wave").asText(),
              c.path("state").asText(),
              c.path("reason").path("message").asText().replace('\n', ' ')));
    }
    int more = held.size() - shown.size();
    if (more > 0 || clusters.hasNonNull("nextCursor")) {
      out.append("  ")
          .append(more > 0 ? "and " + more + " more" : "")
          .append(
              clusters.hasNonNull("nextCursor")
                  ? (more > 0 ? "; " : "")
                      + "more clusters past the first page: GET /api/v1/rollouts/ID/clusters"
                  : "")
          .append('\n');
    }
    return out.toString();
  }

  /**
   * What {@code rollout status} exits with, for a CI job to gate on: 0 Succeeded (or still
   * Progressing, when not watching), {@link ExitCodes#PAUSED} Paused (it waits for a person),
   * {@link ExitCodes#CONFLICT_OR_FAILED} for any other end (Failed, Aborted, RolledBack, or an end
   * with clusters not at the target).
   */
  static int exitCode(JsonNode rollout) {
    return switch (rollout.path("state").asText()) {
      case "Succeeded", "Progressing" -> ExitCodes.OK;
      case "Paused" -> ExitCodes.PAUSED;
      default -> ExitCodes.CONFLICT_OR_FAILED;
    };
  }

  /**
   * True when {@code rollout status --watch} stops: the rollout ended or is paused (it would wait
   * for a person).
   */
  static boolean watchStops(JsonNode rollout) {
    String state = rollout.path("state").asText();
    return ENDED.contains(state) || "Paused".equals(state);
  }
}
