package io.olmstead.controlplane.impact;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The APIs a bundle change takes away and needs (pure), from the CSVs: {@code removed} and {@code
 * added} are owned CRD versions ({@code customresourcedefinitions.owned}) and aggregated APIs
 * ({@code apiservicedefinitions.owned}); {@code requires} is everything the target requires
 * (required CRDs and APIServices, {@code nativeAPIs}), each marked {@code new} when the installed
 * bundle did not require it; {@code noLongerRequired} the requirements dropped.
 */
public final class ApiDiff {
  private ApiDiff() {}

  public static JsonObject diff(JsonNode oldCsv, JsonNode newCsv, int limit) {
    Map<String, JsonObject> ownedBefore = owned(oldCsv);
    Map<String, JsonObject> ownedAfter = owned(newCsv);
    Map<String, JsonObject> requiredBefore = required(oldCsv);
    Map<String, JsonObject> requiredAfter = required(newCsv);
    JsonObject out = new JsonObject();
    Bounded.put(out, "removed", minus(ownedBefore, ownedAfter), limit);
    Bounded.put(out, "added", minus(ownedAfter, ownedBefore), limit);
    List<JsonObject> requires = new ArrayList<>();
    requiredAfter.forEach(
        (k, api) -> requires.add(api.copy().put("new", !requiredBefore.containsKey(k))));
    Bounded.put(out, "requires", requires, limit);
    return Bounded.put(out, "noLongerRequired", minus(requiredBefore, requiredAfter), limit);
  }

  private static List<JsonObject> minus(Map<String, JsonObject> a, Map<String, JsonObject> b) {
    List<JsonObject> out = new ArrayList<>();
    a.forEach(
        (k, v) -> {
          if (!b.containsKey(k)) {
            out.add(v);
          }
        });
    return out;
  }

  private static Map<String, JsonObject> owned(JsonNode csv) {
    Map<String, JsonObject> out = new TreeMap<>();
    if (csv != null) {
      crds(csv.path("spec").path("customresourcedefinitions").path("owned"), out);
      apiServices(csv.path("spec").path("apiservicedefinitions").path("owned"), out);
    }
    return out;
  }

  private static Map<String, JsonObject> required(JsonNode csv) {
    Map<String, JsonObject> out = new TreeMap<>();
    if (csv != null) {
      crds(csv.path("spec").path("customresourcedefinitions").path("required"), out);
      apiServices(csv.path("spec").path("apiservicedefinitions").path("required"), out);
      for (JsonNode gvk : csv.path("spec").path("nativeAPIs")) {
        JsonObject api =
            new JsonObject()
                .put("source", "nativeAPI")
                .put("group", gvk.path("group").asText(""))
                .put("version", gvk.path("version").asText(""))
                .put("kind", gvk.path("kind").asText(""));
        out.put(
            "native/"
                + api.getString("group")
                + "/"
                + api.getString("version")
                + "/"
                + api.getString("kind"),
            api);
      }
    }
    return out;
  }

  private static void crds(JsonNode list, Map<String, JsonObject> out) {
    for (JsonNode d : list) {
      JsonObject api =
          new JsonObject()
              .put("source", "crd")
              .put("name", d.path("name").asText(""))
              .put("version", d.path("version").asText(""))
              .put("kind", d.path("kind").asText(""));
      out.put("crd/" + api.getString("name") + "/" + api.getString("version"), api);
    }
  }

  private static void apiServices(JsonNode list, Map<String, JsonObject> out) {
    for (JsonNode d : list) {
      JsonObject api =
          new JsonObject()
              .put("source", "apiService")
              .put("group", d.path("group").asText(""))
              .put("version", d.path("version").asText(""))
              .put("kind", d.path("kind").asText(""));
      out.put(
          "apiService/"
              + api.getString("group")
              + "/"
              + api.getString("version")
              + "/"
              + api.getString("kind"),
          api);
    }
  }
}
