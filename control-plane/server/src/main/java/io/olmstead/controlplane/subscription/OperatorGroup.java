package io.olmstead.controlplane.subscription;

import io.olmstead.olmcore.installplan.InstallMode;
import io.vertx.core.json.JsonArray;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The operator group a subscription asks for in its namespace (pure): its install mode and the
 * target namespaces the agent gets. On the wire {@code [""]} is AllNamespaces, {@code [namespace]}
 * OwnNamespace, other namespaces Single/MultiNamespace, and no targets lets the bundle decide
 * (AllNamespaces where its CSV supports it, else OwnNamespace), as OLM v1 and the OpenShift console
 * do.
 */
public final class OperatorGroup {
  private OperatorGroup() {}

  /**
   * The mode a request states: {@code installMode}, else the one its {@code targetNamespaces} mean;
   * null: neither.
   */
  static String declared(String installMode, String namespace, List<String> targets) {
    if (installMode != null) {
      return installMode;
    }
    return InstallMode.ofTargets(namespace, targets).map(InstallMode::wireName).orElse(null);
  }

  /** The spec's mode, from its targets when it names none; empty: the bundle decides. */
  private static Optional<InstallMode> mode(SubscriptionSpec spec) {
    return InstallMode.parse(
        declared(spec.installMode(), spec.namespace(), spec.targetNamespaces()));
  }

  /** Mode and targets that do not fit together, each naming its field. */
  static JsonArray problems(SubscriptionSpec spec) {
    JsonArray errors = new JsonArray();
    Optional<InstallMode> mode = mode(spec);
    if (mode.isEmpty()) {
      return errors; // the bundle decides; the schema refused unknown modes
    }
    List<String> targets = spec.targetNamespaces();
    boolean ownListed =
        mode.get() == InstallMode.OWN_NAMESPACE && targets.equals(List.of(spec.namespace()));
    if (!mode.get().takesTargets() && !targets.isEmpty() && !ownListed) {
      errors.add(
          SubscriptionValidation.error(
              "/targetNamespaces",
              "installMode "
                  + spec.installMode()
                  + " takes no targetNamespaces (OwnNamespace: none or the install namespace)"));
    } else if (mode.get() == InstallMode.SINGLE_NAMESPACE
        && (targets.size() != 1 || targets.contains(spec.namespace()))) {
      errors.add(
          SubscriptionValidation.error(
              "/targetNamespaces",
              "installMode SingleNamespace needs exactly one "
                  + "target namespace other than "
                  + spec.namespace()
                  + " (the install namespace is OwnNamespace)"));
    } else if (mode.get() == InstallMode.MULTI_NAMESPACE && targets.isEmpty()) {
      errors.add(
          SubscriptionValidation.error(
              "/targetNamespaces", "installMode MultiNamespace needs targetNamespaces"));
    }
    return errors;
  }

  /** The target namespaces the agent gets (empty: the bundle decides). */
  static List<String> wireTargets(SubscriptionSpec spec) {
    return mode(spec)
        .map(m -> m.targets(spec.namespace(), spec.targetNamespaces()))
        .orElse(List.of());
  }

  /**
   * The mode in effect for a bundle supporting {@code supported} (null: the catalog does not tell);
   * empty when the bundle decides and the catalog does not tell.
   */
  static Optional<InstallMode> effective(SubscriptionSpec spec, List<String> supported) {
    Optional<InstallMode> declared = mode(spec);
    if (declared.isPresent() || supported == null) {
      return declared;
    }
    return Optional.of(InstallMode.defaultFor(supported));
  }

  /**
   * Why a bundle supporting {@code supported} cannot run in the spec's mode; empty when it can or
   * nobody knows.
   */
  static Optional<String> unsupported(
      SubscriptionSpec spec, List<String> supported, String bundle) {
    Optional<InstallMode> mode = effective(spec, supported);
    if (mode.isEmpty() || supported == null) {
      return Optional.empty();
    }
    // OLM checks the targets, not the declared mode: MultiNamespace with one other target is
    // SingleNamespace
    List<String> targets = mode.get().targets(spec.namespace(), spec.targetNamespaces());
    InstallMode checked = InstallMode.ofTargets(spec.namespace(), targets).orElse(mode.get());
    if (supported.contains(checked.wireName())) {
      return Optional.empty();
    }
    return Optional.of(
        "bundle "
            + bundle
            + " does not support install mode "
            + checked.wireName()
            + " (it supports "
            + (supported.isEmpty() ? "none" : String.join(", ", supported))
            + ")");
  }

  /** The targets two subscriptions of one namespace must agree on, sorted; empty when unknown. */
  static Optional<List<String>> key(SubscriptionSpec spec, List<String> supported) {
    return effective(spec, supported)
        .map(m -> List.copyOf(new TreeSet<>(m.targets(spec.namespace(), spec.targetNamespaces()))));
  }
}
