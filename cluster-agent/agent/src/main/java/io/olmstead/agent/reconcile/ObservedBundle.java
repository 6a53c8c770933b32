package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import io.olmstead.olmcore.semver.Version;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A bundle the agent installed (or is installing), read back from its OperatorCondition, which
 * doubles as the agent's restart-safe record: subscription, package, catalog, channel, phase and
 * the kinds it created.
 */
public record ObservedBundle(
    String subscription,
    String bundle,
    CsvPhase phase,
    String packageName,
    String catalog,
    String channel,
    String version,
    String dependencyOf,
    boolean deleteCrds,
    List<ResourceKinds.Kind> kinds,
    List<String> crds,
    JsonNode operatorCondition) {

  static final String PACKAGE = "olmstead.io/package";
  static final String CATALOG = "olmstead.io/catalog";
  static final String CHANNEL = "olmstead.io/channel";
  static final String VERSION = "olmstead.io/version";
  static final String KINDS = "olmstead.io/kinds";
  static final String CRD_REMOVAL = "olmstead.io/crd-removal";
  static final String CRDS = "olmstead.io/crds";

  /** Reads the record off an OperatorCondition the agent created; empty for anyone else's. */
  public static Optional<ObservedBundle> from(JsonNode oc) {
    JsonNode meta = oc.path("metadata");
    JsonNode ann = meta.path("annotations");
    String sub = ann.path(ManagedLabels.SUBSCRIPTION_ANNOTATION).asText("");
    if (sub.isEmpty()) {
      return Optional.empty();
    }
    CsvPhase phase =
        CsvPhase.fromWireName(ann.path(ManagedLabels.PHASE_ANNOTATION).asText(""))
            .orElse(CsvPhase.NONE);
    List<ResourceKinds.Kind> kinds = new ArrayList<>();
    for (String entry : ann.path(KINDS).asText("").split(",")) {
      int bar = entry.indexOf('|');
      if (bar > 0) {
        kinds.add(new ResourceKinds.Kind(entry.substring(0, bar), entry.substring(bar + 1)));
      }
    }
    String dependencyOf = meta.path("labels").path(ManagedLabels.DEPENDENCY_OF).asText(null);
    return Optional.of(
        new ObservedBundle(
            sub,
            meta.path("name").asText(),
            phase,
            ann.path(PACKAGE).asText(""),
            ann.path(CATALOG).asText(""),
            ann.path(CHANNEL).asText(""),
            ann.path(VERSION).asText(""),
            dependencyOf,
            "Delete".equals(ann.path(CRD_REMOVAL).asText()),
            List.copyOf(kinds),
            Arrays.stream(ann.path(CRDS).asText("").split(",")).filter(c -> !c.isEmpty()).toList(),
            oc));
  }

  /** The annotations that make up the record. */
  static Map<String, String> annotations(
      String subscription,
      CsvPhase phase,
      String packageName,
      String catalog,
      String channel,
      String version,
      boolean deleteCrds,
      List<ResourceKinds.Kind> kinds,
      List<String> crds) {
    Map<String, String> ann = new LinkedHashMap<>();
    ann.put(ManagedLabels.SUBSCRIPTION_ANNOTATION, subscription);
    ann.put(ManagedLabels.PHASE_ANNOTATION, phase.wireName());
    ann.put(PACKAGE, packageName);
    ann.put(CATALOG, catalog == null ? "" : catalog);
    ann.put(CHANNEL, channel == null ? "" : channel);
    ann.put(VERSION, version == null ? "" : version);
    ann.put(CRD_REMOVAL, deleteCrds ? "Delete" : "Keep");
    ann.put(
        KINDS, String.join(",", kinds.stream().map(k -> k.apiVersion() + "|" + k.kind()).toList()));
    ann.put(CRDS, String.join(",", crds));
    return ann;
  }

  /**
   * True once the bundle ran successfully (it stays the installed one while a replacement is in
   * progress).
   */
  public boolean succeededOnce() {
    return phase == CsvPhase.SUCCEEDED || phase == CsvPhase.REPLACING || phase == CsvPhase.DELETING;
  }

  /** The semver version, when the record carries a valid one. */
  public Optional<Version> semver() {
    return Version.tryParse(version);
  }
}
