package io.olmstead.controlplane.impact;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.olmcore.lifecycle.CrdSchemaFinding;
import io.olmstead.olmcore.lifecycle.CrdSchemaRules;
import io.olmstead.olmcore.lifecycle.CrdUpgradeCheck;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The CRDs a bundle change adds, removes and changes (pure): per changed CRD the versions added and
 * removed, the storage version moved, the versions whose schema differs, and the schema findings of
 * olm-core's {@link CrdSchemaRules} (the rules the agent's CRD upgrade check applies: removed
 * versions, narrowed types, new required fields...). {@link #affected} says which CRDs touch
 * existing custom resources, and how.
 */
public final class CrdDiff {
  /**
   * A removed CRD, a removed version or a breaking finding: existing objects may be rejected or
   * lose data.
   */
  public static final String BREAKING = "breaking";

  /** Only the schema changed in ways the rules do not call breaking. */
  public static final String SCHEMA_CHANGED = "schemaChanged";

  private CrdDiff() {}

  /** The diff and, per CRD name, why its existing custom resources are affected. */
  public record Result(JsonObject json, Map<String, String> affected) {}

  public static Result diff(
      Map<String, JsonNode> before, Map<String, JsonNode> after, ImpactLimits limits) {
    List<JsonObject> added = new ArrayList<>();
    List<JsonObject> removed = new ArrayList<>();
    List<JsonObject> changed = new ArrayList<>();
    Map<String, String> affected = new LinkedHashMap<>();
    after.forEach(
        (name, crd) -> {
          if (!before.containsKey(name)) {
            added.add(summary(name, crd));
          }
        });
    before.forEach(
        (name, crd) -> {
          JsonNode next = after.get(name);
          if (next == null) {
            removed.add(summary(name, crd));
            affected.put(name, BREAKING);
          } else if (!Objects.equals(crd.path("spec"), next.path("spec"))) {
            JsonObject change = change(name, crd, next, limits.findingsPerCrd());
            changed.add(change);
            if (change.getBoolean("breaking")) {
              affected.put(name, BREAKING);
            } else if (!change.getJsonArray("schemaChanged").isEmpty()) {
              affected.put(name, SCHEMA_CHANGED);
            }
          }
        });
    JsonObject json = new JsonObject();
    Bounded.put(json, "added", added, limits.entries());
    Bounded.put(json, "removed", removed, limits.entries());
    Bounded.put(json, "changed", changed, limits.entries());
    return new Result(json, affected);
  }

  private static JsonObject summary(String name, JsonNode crd) {
    JsonNode spec = crd.path("spec");
    return new JsonObject()
        .put("name", name)
        .put("kind", spec.path("names").path("kind").asText(null))
        .put("scope", spec.path("scope").asText("Namespaced"))
        .put("versions", new JsonArray(new ArrayList<>(CrdUpgradeCheck.versionNames(crd))));
  }

  private static JsonObject change(
      String name, JsonNode before, JsonNode after, int findingsLimit) {
    Set<String> old = CrdUpgradeCheck.versionNames(before);
    Set<String> now = CrdUpgradeCheck.versionNames(after);
    Set<String> gained = new TreeSet<>(now);
    gained.removeAll(old);
    Set<String> lost = new TreeSet<>(old);
    lost.removeAll(now);
    List<String> schema = new ArrayList<>();
    for (String v : old) {
      if (now.contains(v)
          && !Objects.equals(
              CrdUpgradeCheck.schemaFor(before, v), CrdUpgradeCheck.schemaFor(after, v))) {
        schema.add(v);
      }
    }
    List<CrdSchemaFinding> findings = CrdSchemaRules.compare(before, after);
    List<JsonObject> findingJson =
        findings.stream()
            .map(
                f ->
                    new JsonObject()
                        .put("id", f.id())
                        .put("severity", f.severity().name())
                        .put("path", f.path())
                        .put("message", f.message()))
            .toList();
    boolean breaking =
        !lost.isEmpty()
            || findings.stream().anyMatch(f -> f.severity() == CrdSchemaFinding.Severity.BREAKING);
    JsonObject json =
        new JsonObject()
            .put("name", name)
            .put("kind", after.path("spec").path("names").path("kind").asText(null))
            .put("versionsAdded", new JsonArray(new ArrayList<>(gained)))
            .put("versionsRemoved", new JsonArray(new ArrayList<>(lost)))
            .put("schemaChanged", new JsonArray(schema));
    String storedBefore = storage(before);
    String storedAfter = storage(after);
    if (!Objects.equals(storedBefore, storedAfter)) {
      json.put("storageVersion", new JsonObject().put("from", storedBefore).put("to", storedAfter));
    }
    Bounded.put(json, "findings", findingJson, findingsLimit);
    return json.put("breaking", breaking);
  }

  private static String storage(JsonNode crd) {
    for (JsonNode v : crd.path("spec").path("versions")) {
      if (v.path("storage").asBoolean(false)) {
        return v.path("name").asText(null);
      }
    }
    return null;
  }
}
