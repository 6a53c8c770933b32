package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * OLM's four install modes and the operator-group target namespaces each stands for: {@code [""]}
 * for AllNamespaces, the operator's own namespace for OwnNamespace, the chosen namespaces for
 * Single/MultiNamespace. With no mode and no targets the bundle decides, as OLM v1 and the
 * OpenShift console do: AllNamespaces when its CSV supports it, else OwnNamespace.
 */
public enum InstallMode {
  ALL_NAMESPACES(InstallModes.ALL),
  OWN_NAMESPACE(InstallModes.OWN),
  SINGLE_NAMESPACE(InstallModes.SINGLE),
  MULTI_NAMESPACE(InstallModes.MULTI);

  private final String wireName;

  InstallMode(String wireName) {
    this.wireName = wireName;
  }

  /** The name OLM's CSV {@code installModes[].type} uses ({@code AllNamespaces}, ...). */
  public String wireName() {
    return wireName;
  }

  /**
   * True when the mode takes its target namespaces from the subscription (Single/MultiNamespace).
   */
  public boolean takesTargets() {
    return this == SINGLE_NAMESPACE || this == MULTI_NAMESPACE;
  }

  /** The mode named {@code name} exactly as OLM spells it; empty for null or an unknown name. */
  public static Optional<InstallMode> parse(String name) {
    return Arrays.stream(values()).filter(m -> m.wireName.equals(name)).findFirst();
  }

  /**
   * The mode OLM reads off operator-group targets: {@code [""]} AllNamespaces, {@code [namespace]}
   * OwnNamespace, one other SingleNamespace, several MultiNamespace; empty for no targets (the
   * bundle decides).
   */
  public static Optional<InstallMode> ofTargets(String namespace, List<String> targets) {
    if (targets == null || targets.isEmpty()) {
      return Optional.empty();
    }
    if (targets.size() > 1) {
      return Optional.of(MULTI_NAMESPACE);
    }
    String only = targets.get(0) == null ? "" : targets.get(0);
    return Optional.of(
        only.isEmpty()
            ? ALL_NAMESPACES
            : only.equals(namespace) ? OWN_NAMESPACE : SINGLE_NAMESPACE);
  }

  /**
   * The operator group's target namespaces for this mode ({@code targets} only count for
   * Single/Multi).
   */
  public List<String> targets(String namespace, List<String> targets) {
    return switch (this) {
      case ALL_NAMESPACES -> List.of("");
      case OWN_NAMESPACE -> List.of(namespace);
      default -> targets == null ? List.of() : List.copyOf(targets);
    };
  }

  /** The bundle's default: AllNamespaces when the CSV supports it, else OwnNamespace. */
  public static InstallMode defaultFor(JsonNode csv) {
    for (JsonNode mode : csv.path("spec").path("installModes")) {
      if (InstallModes.ALL.equals(mode.path("type").asText())
          && mode.path("supported").asBoolean(false)) {
        return ALL_NAMESPACES;
      }
    }
    return OWN_NAMESPACE;
  }

  /** The same default from the supported mode names a catalog's {@code olm.csv.metadata} lists. */
  public static InstallMode defaultFor(List<String> supported) {
    return supported.contains(InstallModes.ALL) ? ALL_NAMESPACES : OWN_NAMESPACE;
  }
}
