package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;

/** How a rollout reads on a terminal: a headline and one progress bar per wave. Pure, unit-tested. */
final class RolloutView {
  static final int BAR_WIDTH = 20;
  static final Set<String> ENDED = Set.of("Succeeded", "SucceededWithExceptions", "Failed", "Aborted", "RolledBack");
  static final Set<String> ENDED_BADLY = Set.of("Failed", "Aborted", "RolledBack");

  private RolloutView() {
  }

  /** {@code [#####!!-------------]}: {@code #} succeeded, {@code !} failed or blocked, {@code -} the rest. */
  static String bar(int succeeded, int failed, int total) {
    if (total <= 0) {
      return "[" + "-".repeat(BAR_WIDTH) + "]";
    }
    int ok = Math.min(BAR_WIDTH, (int) Math.floor((double) succeeded * BAR_WIDTH / total));
    int bad = failed == 0 ? 0 : Math.max(1, Math.min(BAR_WIDTH - ok, (int) Math.round((double) failed * BAR_WIDTH
        / total)));
    return "[" + "#".repeat(ok) + "!".repeat(bad) + "-".repeat(BAR_WIDTH - ok - bad) + "]";
  }

  /** The headline and the waves, each line ending in a newline. */
  static String render(JsonNode rollout) {
    JsonNode counts = rollout.path("counts");
    StringBuilder out = new StringBuilder();
    out.append("Rollout ").append(rollout.path("id").asText()).append(": ").append(rollout.path("subscription")
        .asText()).append(" -> ").append(rollout.path("targetVersion").asText()).append("   ")
        .append(rollout.path("state").asText()).append("   ").append(counts.path("succeeded").asInt()).append('/')
        .append(counts.path("clusters").asInt()).append(" succeeded, ").append(failed(counts)).append(" failed")
        .append(counts.path("rolledBack").asInt() > 0 ? ", " + counts.path("rolledBack").asInt() + " rolled back"
            : "").append('\n');
    int nameWidth = 4;
    for (JsonNode wave : rollout.path("waves")) {
      nameWidth = Math.max(nameWidth, wave.path("name").asText().length());
    }
    for (JsonNode wave : rollout.path("waves")) {
      int total = wave.path("clusters").asInt();
      String name = wave.path("name").asText();
      out.append("  ").append(name).append(" ".repeat(nameWidth - name.length() + 2))
          .append(bar(wave.path("succeeded").asInt(), failed(wave), total)).append(' ')
          .append(String.format("%4d/%-4d", wave.path("succeeded").asInt(), total))
          .append(failed(wave) > 0 ? "  " + failed(wave) + " failed" : "")
          .append(wave.path("rolledBack").asInt() > 0 ? "  " + wave.path("rolledBack").asInt() + " rolled back" : "")
          .append("  ").append(wave.path("state").asText()).append('\n');
    }
    if (rollout.hasNonNull("message") && !rollout.path("message").asText().isBlank()) {
      out.append("  message: ").append(rollout.path("message").asText().replace('\n', ' ')).append('\n');
    }
    return out.toString();
  }

  private static int failed(JsonNode counts) {
    return counts.path("failed").asInt() + counts.path("blocked").asInt();
  }

  /** 0 while running or Succeeded, {@link ExitCodes#CONFLICT_OR_FAILED} once it ended Failed/Aborted/RolledBack. */
  static int exitCode(JsonNode rollout) {
    return ENDED_BADLY.contains(rollout.path("state").asText()) ? ExitCodes.CONFLICT_OR_FAILED : ExitCodes.OK;
  }
}
