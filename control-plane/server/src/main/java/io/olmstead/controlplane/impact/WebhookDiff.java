package io.olmstead.controlplane.impact;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The admission and conversion webhooks a bundle change adds, removes and changes (pure), from the
 * CSVs' {@code webhookdefinitions} keyed by {@code generateName} (the name of the webhook
 * configuration OLM writes): a changed webhook names the fields that differ.
 */
public final class WebhookDiff {
  /** The fields of a webhook definition compared, in the order they are named. */
  static final List<String> FIELDS =
      List.of(
          "type",
          "deploymentName",
          "containerPort",
          "targetPort",
          "webhookPath",
          "rules",
          "failurePolicy",
          "sideEffects",
          "matchPolicy",
          "reinvocationPolicy",
          "timeoutSeconds",
          "admissionReviewVersions",
          "objectSelector",
          "conversionCRDs");

  private WebhookDiff() {}

  public static JsonObject diff(JsonNode oldCsv, JsonNode newCsv, int limit) {
    Map<String, JsonNode> before = definitions(oldCsv);
    Map<String, JsonNode> after = definitions(newCsv);
    List<JsonObject> added = new ArrayList<>();
    List<JsonObject> removed = new ArrayList<>();
    List<JsonObject> changed = new ArrayList<>();
    after.forEach(
        (name, def) -> {
          if (!before.containsKey(name)) {
            added.add(summary(name, def));
          }
        });
    before.forEach(
        (name, def) -> {
          JsonNode next = after.get(name);
          if (next == null) {
            removed.add(summary(name, def));
            return;
          }
          JsonArray fields = new JsonArray();
          FIELDS.stream()
              .filter(f -> !Objects.equals(def.get(f), next.get(f)))
              .forEach(fields::add);
          if (!fields.isEmpty()) {
            changed.add(summary(name, next).put("fields", fields));
          }
        });
    JsonObject out = new JsonObject();
    Bounded.put(out, "added", added, limit);
    Bounded.put(out, "removed", removed, limit);
    return Bounded.put(out, "changed", changed, limit);
  }

  private static JsonObject summary(String name, JsonNode def) {
    JsonObject json = new JsonObject().put("name", name).put("type", def.path("type").asText(null));
    if (def.has("failurePolicy")) {
      json.put("failurePolicy", def.path("failurePolicy").asText());
    }
    if (def.path("conversionCRDs").isArray()) {
      JsonArray crds = new JsonArray();
      def.path("conversionCRDs").forEach(c -> crds.add(c.asText()));
      json.put("conversionCRDs", crds);
    }
    return json;
  }

  private static Map<String, JsonNode> definitions(JsonNode csv) {
    Map<String, JsonNode> out = new TreeMap<>();
    if (csv != null) {
      for (JsonNode def : csv.path("spec").path("webhookdefinitions")) {
        String name = def.path("generateName").asText("");
        out.put(
            name.isEmpty()
                ? def.path("type").asText("") + "/" + def.path("deploymentName").asText("")
                : name,
            def);
      }
    }
    return out;
  }
}
