package io.olmstead.olmcore.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.olmcore.lifecycle.CrdSchemaFinding.Severity;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The schema change rules that go beyond {@link CrdUpgradeCheck}: compares an installed CRD with
 * its replacement version by version and names every change that can reject or drop data of
 * existing objects. Pure; a schema deeper than {@link #MAX_DEPTH} or larger than {@link #MAX_NODES}
 * nodes is compared only up to that bound and the cut is reported as a {@code
 * SchemaNotFullyCompared} warning, so a hostile bundle cannot make the check run long.
 */
public final class CrdSchemaRules {

  /**
   * Nesting levels compared; Kubernetes itself rejects schemas far shallower than this in practice.
   */
  public static final int MAX_DEPTH = 64;

  /** Schema nodes compared per version pair. */
  public static final int MAX_NODES = 50_000;

  private CrdSchemaRules() {}

  /** Every finding for replacing {@code oldCrd} with {@code newCrd}; empty when either is null. */
  public static List<CrdSchemaFinding> compare(JsonNode oldCrd, JsonNode newCrd) {
    List<CrdSchemaFinding> out = new ArrayList<>();
    if (oldCrd == null || newCrd == null) {
      return out;
    }
    String oldScope = oldCrd.path("spec").path("scope").asText("Namespaced");
    String newScope = newCrd.path("spec").path("scope").asText("Namespaced");
    if (!oldScope.equals(newScope)) {
      out.add(
          new CrdSchemaFinding(
              "ScopeChanged",
              Severity.BREAKING,
              "spec.scope",
              "scope changes from " + oldScope + " to " + newScope));
    }
    Set<String> newVersions = CrdUpgradeCheck.versionNames(newCrd);
    for (String version : CrdUpgradeCheck.versionNames(oldCrd)) {
      if (!newVersions.contains(version)) {
        out.add(
            new CrdSchemaFinding(
                "VersionRemoved",
                Severity.BREAKING,
                "spec.versions[" + version + "]",
                "version " + version + " is removed"));
        continue;
      }
      JsonNode before = CrdUpgradeCheck.schemaFor(oldCrd, version);
      JsonNode after = CrdUpgradeCheck.schemaFor(newCrd, version);
      if (before != null && after != null) {
        new Walk(version, out).schema(before, after, "", 0);
      }
    }
    return out;
  }

  /** One version's comparison, carrying the node budget. */
  private static final class Walk {
    private final String version;
    private final List<CrdSchemaFinding> out;
    private int nodes;
    private boolean cut;

    Walk(String version, List<CrdSchemaFinding> out) {
      this.version = version;
      this.out = out;
    }

    void schema(JsonNode before, JsonNode after, String path, int depth) {
      if (!before.isObject() || !after.isObject()) {
        return;
      }
      if (depth > MAX_DEPTH || ++nodes > MAX_NODES) {
        if (!cut) {
          cut = true;
          add(
              "SchemaNotFullyCompared",
              Severity.WARNING,
              path,
              "schema is deeper than "
                  + MAX_DEPTH
                  + " levels or larger than "
                  + MAX_NODES
                  + " nodes; the rest was not compared");
        }
        return;
      }
      String oldType = before.path("type").asText("");
      String newType = after.path("type").asText("");
      if (!oldType.isEmpty() && !newType.isEmpty() && !oldType.equals(newType)) {
        add(
            "TypeChanged",
            Severity.BREAKING,
            path,
            "type changes from " + oldType + " to " + newType);
        return; // below a type change every other difference is noise
      }
      SchemaFacets.compare(
          before, after, (id, severity, message) -> add(id, severity, path, message));
      properties(before, after, path, depth);
      if (before.path("items").isObject()) {
        schema(before.path("items"), after.path("items"), path + "[*]", depth + 1);
      }
      if (before.path("additionalProperties").isObject()) {
        schema(
            before.path("additionalProperties"),
            after.path("additionalProperties"),
            path + "{*}",
            depth + 1);
      }
    }

    private void properties(JsonNode before, JsonNode after, String path, int depth) {
      JsonNode oldProps = before.path("properties");
      JsonNode newProps = after.path("properties");
      Set<String> oldRequired = strings(before.path("required"));
      for (String field : strings(after.path("required"))) {
        if (!oldRequired.contains(field)) {
          add(
              "RequiredFieldAdded",
              Severity.BREAKING,
              path + "." + field,
              "field " + field + " becomes required");
        }
      }
      oldProps
          .fieldNames()
          .forEachRemaining(
              field -> {
                JsonNode next = newProps.get(field);
                if (next == null) {
                  add(
                      "FieldRemoved",
                      Severity.BREAKING,
                      path + "." + field,
                      "field " + field + " is removed");
                } else {
                  schema(oldProps.get(field), next, path + "." + field, depth + 1);
                }
              });
    }

    private void add(String id, Severity severity, String path, String message) {
      String where = version + ":" + (path.isEmpty() ? "." : path);
      out.add(new CrdSchemaFinding(id, severity, where, message + " in version " + version));
    }

    private static Set<String> strings(JsonNode array) {
      Set<String> s = new LinkedHashSet<>();
      array.forEach(n -> s.add(n.asText()));
      return s;
    }
  }
}
