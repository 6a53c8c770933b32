package io.olmstead.controlplane.impact;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The permissions the operator gains and loses between two CSVs (pure). Every rule of {@code
 * permissions} (scope {@code namespace}: a Role in the install and target namespaces, lifted to a
 * ClusterRole when the operator watches all namespaces) and {@code clusterPermissions} (scope
 * {@code cluster}) is expanded to one grant per API group, resource (with its resource names) or
 * non-resource URL, with its verbs; the diff lists, per grant, the verbs added and removed,
 * whatever service account or rule carried them. A {@code *} is compared as written.
 */
public final class RbacDiff {
  private RbacDiff() {}

  /** One grant: where, on what. */
  record Grant(
      String scope, String apiGroup, String resource, String resourceNames, String nonResourceUrl)
      implements Comparable<Grant> {
    @Override
    public int compareTo(Grant o) {
      return key().compareTo(o.key());
    }

    private String key() {
      return scope
          + "\u0000"
          + (nonResourceUrl != null
              ? "~" + nonResourceUrl
              : apiGroup + "\u0000" + resource + "\u0000" + resourceNames);
    }

    JsonObject toJson(Set<String> verbs) {
      JsonObject json = new JsonObject().put("scope", scope);
      if (nonResourceUrl != null) {
        json.put("nonResourceURL", nonResourceUrl);
      } else {
        json.put("apiGroup", apiGroup).put("resource", resource);
        if (!resourceNames.isEmpty()) {
          json.put("resourceNames", new JsonArray(List.of((Object[]) resourceNames.split(","))));
        }
      }
      return json.put("verbs", new JsonArray(new ArrayList<>(verbs)));
    }
  }

  /** {@code {added: [...], removed: [...]}}, each list cut to {@code limit}. */
  public static JsonObject diff(JsonNode oldCsv, JsonNode newCsv, int limit) {
    Map<Grant, Set<String>> before = grants(oldCsv);
    Map<Grant, Set<String>> after = grants(newCsv);
    List<JsonObject> added = minus(after, before);
    List<JsonObject> removed = minus(before, after);
    JsonObject out = new JsonObject();
    Bounded.put(out, "added", added, limit);
    Bounded.put(out, "removed", removed, limit);
    return out.put(
        "clusterScopedChanged",
        added.stream().anyMatch(RbacDiff::clusterScoped)
            || removed.stream().anyMatch(RbacDiff::clusterScoped));
  }

  private static boolean clusterScoped(JsonObject grant) {
    return "cluster".equals(grant.getString("scope"));
  }

  /**
   * The grants of a CSV's install strategy with their verbs, in a stable order; empty for a null
   * CSV.
   */
  static Map<Grant, Set<String>> grants(JsonNode csv) {
    Map<Grant, Set<String>> out = new TreeMap<>();
    if (csv == null) {
      return out;
    }
    JsonNode strategy = csv.path("spec").path("install").path("spec");
    collect(strategy.path("permissions"), "namespace", out);
    collect(strategy.path("clusterPermissions"), "cluster", out);
    return out;
  }

  private static void collect(JsonNode permissions, String scope, Map<Grant, Set<String>> out) {
    for (JsonNode permission : permissions) {
      for (JsonNode rule : permission.path("rules")) {
        Set<String> verbs = texts(rule.path("verbs"));
        if (verbs.isEmpty()) {
          continue;
        }
        String names = String.join(",", texts(rule.path("resourceNames")));
        for (String url : texts(rule.path("nonResourceURLs"))) {
          out.computeIfAbsent(new Grant(scope, null, null, "", url), k -> new TreeSet<>())
              .addAll(verbs);
        }
        Set<String> groups = texts(rule.path("apiGroups"));
        for (String group : groups.isEmpty() && rule.has("resources") ? Set.of("") : groups) {
          for (String resource : texts(rule.path("resources"))) {
            out.computeIfAbsent(
                    new Grant(scope, group, resource, names, null), k -> new TreeSet<>())
                .addAll(verbs);
          }
        }
      }
    }
  }

  private static Set<String> texts(JsonNode array) {
    Set<String> out = new TreeSet<>();
    if (array.isArray()) {
      array.forEach(n -> out.add(n.asText()));
    }
    return out;
  }

  private static List<JsonObject> minus(Map<Grant, Set<String>> a, Map<Grant, Set<String>> b) {
    List<JsonObject> out = new ArrayList<>();
    a.forEach(
        (grant, verbs) -> {
          Set<String> only = new TreeSet<>(verbs);
          only.removeAll(b.getOrDefault(grant, Set.of()));
          if (!only.isEmpty()) {
            out.add(grant.toJson(only));
          }
        });
    return out;
  }
}
