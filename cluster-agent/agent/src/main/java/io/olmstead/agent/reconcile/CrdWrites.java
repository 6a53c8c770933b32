package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.k8s.ApplyOutcome;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.OperatorConditions;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.k8s.Subset;
import io.olmstead.olmcore.lifecycle.SharedCrdRule;
import io.olmstead.olmcore.lifecycle.SharedCrdRule.Existing;
import io.olmstead.olmcore.lifecycle.SharedCrdRule.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Writes a bundle's CRDs, and their aggregated ClusterRoles, as the install of their newest owner
 * (olm-core's {@link SharedCrdRule}): each records its writer (package, version, install) in
 * annotations; an install whose bundle is older, or that shares the version with the install that
 * wrote it, leaves the CRD as it is, decided on the very version the write would replace. The CRD
 * safety checks ({@link CrdSafety}) apply to the CRDs this install writes.
 */
final class CrdWrites {
  static final String CRD_API = "apiextensions.k8s.io/v1";
  static final String CRD_KIND = "CustomResourceDefinition";

  /** The package of the bundle whose schema the CRD has. */
  static final String PACKAGE = "olmstead.io/crd-package";

  /** The version of that bundle. */
  static final String VERSION = "olmstead.io/crd-version";

  /** The install that wrote it: {@code namespace/subscription}. */
  static final String WRITER = "olmstead.io/crd-writer";

  private final ResourceOperator resources;
  private final CrdSafety safety;

  CrdWrites(ResourceOperator resources, CrdSafety safety) {
    this.resources = resources;
    this.safety = safety;
  }

  /** The install of {@code target} as a CRD writer. */
  static Writer writer(InstallTarget target) {
    SubscriptionToReconcile sub = target.subscription();
    return new Writer(
        target.bundle().packageName(),
        target.bundle().versionText(),
        sub.namespace() + "/" + sub.name());
  }

  /** Copies of {@code crds} carrying {@code writer} in their annotations. */
  static List<JsonNode> recorded(List<JsonNode> crds, Writer writer) {
    List<JsonNode> out = new ArrayList<>(crds.size());
    for (JsonNode crd : crds) {
      ObjectNode copy = crd.deepCopy();
      copy.withObjectProperty("metadata")
          .withObjectProperty("annotations")
          .put(PACKAGE, writer.packageName())
          .put(VERSION, writer.version())
          .put(WRITER, writer.install());
      out.add(copy);
    }
    return out;
  }

  /**
   * Those of {@code crds} (as {@link #recorded}) that {@code writer} writes over the cluster's CRDs
   * as they are now.
   */
  List<JsonNode> written(List<JsonNode> crds, Writer writer) throws ResourceException {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode crd : crds) {
      Optional<JsonNode> existing =
          resources.get(CRD_API, CRD_KIND, null, crd.path("metadata").path("name").asText());
      if (existing.isEmpty()
          || Subset.contains(existing.get(), crd)
          || verdict(existing.get(), writer).writes()) {
        out.add(crd);
      }
    }
    return out;
  }

  /**
   * Applies {@code crds} (as {@link #recorded}) in order, through {@code gate} (the drift restore
   * limiter, or null), adding each outcome to {@code outcomes}; the API server's or the safety
   * check's refusal of one ends it and is returned, null when none was refused.
   */
  String apply(
      List<JsonNode> crds, Writer writer, ResourceOperator.Gate gate, List<ApplyOutcome> outcomes)
      throws ResourceException {
    for (JsonNode crd : crds) {
      try {
        outcomes.add(
            resources.apply(
                crd,
                existing -> !verdict(existing, writer).writes(),
                existing -> safety.problem(existing, crd),
                gate));
      } catch (ResourceException e) {
        if (!e.rejected()) {
          throw e; // unreachable or overloaded: retry the whole pass later
        }
        return e.getMessage();
      }
    }
    return null;
  }

  /**
   * Applies {@code object}, shared like the CRDs (an aggregated ClusterRole of one), as {@code
   * writer} records it, unless the rule leaves the existing one to the install that wrote it
   * ({@link ApplyOutcome.Result#KEPT}).
   */
  ApplyOutcome applyShared(JsonNode object, Writer writer, ResourceOperator.Gate gate)
      throws ResourceException {
    return resources.apply(
        recorded(List.of(object), writer).get(0),
        existing -> !verdict(existing, writer).writes(),
        null,
        gate);
  }

  private SharedCrdRule.Verdict verdict(JsonNode existing, Writer mine) throws ResourceException {
    JsonNode annotations = existing.path("metadata").path("annotations");
    String install = annotations.path(WRITER).asText("");
    if (install.isEmpty()) {
      return SharedCrdRule.decide(new Existing(null, false), mine);
    }
    Writer theirs =
        new Writer(
            annotations.path(PACKAGE).asText(""), annotations.path(VERSION).asText(""), install);
    boolean installed = !install.equals(mine.install()) && installed(install);
    return SharedCrdRule.decide(new Existing(theirs, installed), mine);
  }

  /**
   * Whether the install {@code namespace/subscription} still has a bundle on the cluster (its
   * OperatorCondition).
   */
  private boolean installed(String install) throws ResourceException {
    int slash = install.indexOf('/');
    if (slash <= 0) {
      return false;
    }
    return !resources
        .list(
            OperatorConditions.API_VERSION,
            OperatorConditions.KIND,
            ManagedLabels.selector(install.substring(slash + 1), install.substring(0, slash)))
        .isEmpty();
  }
}
