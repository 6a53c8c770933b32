package io.olmstead.agent.inventory;

import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.ProtocolCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Cuts a report to what the protocol accepts: texts shortened (NUL replaced), an unknown phase sent
 * as {@code Unknown}, and, when the encoded report is over {@link InventoryBounds#REPORT_BYTES},
 * the stacks of the operators with the most stacks dropped first (the report then says {@code
 * truncated}). Pure.
 */
final class InventoryFit {
  private static final Set<String> PHASES =
      Set.of(
          "Pending",
          "RequiresApproval",
          "InstallReady",
          "Installing",
          "Succeeded",
          "Failed",
          "Replacing",
          "Deleting",
          "Unknown");

  private InventoryFit() {}

  static String text(String value, int max) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    String clean = value.replace('\u0000', '\uFFFD');
    return clean.length() > max ? clean.substring(0, max) : clean;
  }

  static String phase(String phase) {
    return phase == null || phase.isEmpty()
        ? "Pending"
        : PHASES.contains(phase) ? phase : "Unknown";
  }

  static int size(Inventory inventory) {
    return ProtocolCodec.encode(inventory).getBytes(StandardCharsets.UTF_8).length;
  }

  static Inventory fit(Inventory inventory) {
    return fit(inventory, InventoryBounds.REPORT_BYTES);
  }

  static Inventory fit(Inventory inventory, int maxBytes) {
    Inventory current = inventory;
    while (size(current) > maxBytes) {
      List<Inventory.Operator> ops = new ArrayList<>(current.operators());
      Inventory.Operator largest =
          ops.stream()
              .filter(o -> o.stacks() != null && !o.stacks().isEmpty())
              .max(Comparator.comparingInt(o -> o.stacks().size()))
              .orElse(null);
      if (largest == null) {
        // no stacks left: drop operators from the end
        if (ops.isEmpty()) {
          return current;
        }
        ops.remove(ops.size() - 1);
      } else {
        int at = ops.indexOf(largest);
        ops.set(
            at,
            new Inventory.Operator(
                largest.subscription(),
                largest.namespace(),
                largest.packageName(),
                largest.bundle(),
                largest.version(),
                largest.phase(),
                largest.reason(),
                largest.dependencyOf(),
                largest.customResources(),
                largest.pods(),
                largest.stacks().subList(0, largest.stacks().size() / 2)));
      }
      current =
          new Inventory(
              current.protocol(), current.id(), current.cluster(), List.copyOf(ops), Boolean.TRUE);
    }
    return current;
  }
}
