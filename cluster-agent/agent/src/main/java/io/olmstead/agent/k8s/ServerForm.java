package io.olmstead.agent.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Puts a desired object in the form it can be compared with the stored one. A field the API server
 * rewrites, or another controller owns, would otherwise never compare equal: every pass would write
 * it, and with informers on the kind every write would be an event, another pass and another write.
 */
public final class ServerForm {
  /**
   * ServiceAccount lists other controllers add to (OpenShift adds its registry pull secret to every
   * account).
   */
  private static final List<String> SERVICE_ACCOUNT_LISTS = List.of("imagePullSecrets", "secrets");

  private ServerForm() {}

  /**
   * {@code desired} as the server would store it: a Secret's write-only {@code stringData} moved
   * into {@code data} (base64, as the server does, winning over the same key in data), an
   * aggregated ClusterRole without the rules Kubernetes' aggregation controller fills in.
   */
  public static JsonNode stored(JsonNode desired) {
    String kind = desired.path("kind").asText();
    if ("Secret".equals(kind) && desired.path("stringData").isObject()) {
      ObjectNode copy = desired.deepCopy();
      ObjectNode data = copy.withObjectProperty("data");
      for (Iterator<Map.Entry<String, JsonNode>> it = copy.path("stringData").fields();
          it.hasNext(); ) {
        Map.Entry<String, JsonNode> entry = it.next();
        data.put(
            entry.getKey(),
            Base64.getEncoder()
                .encodeToString(entry.getValue().asText().getBytes(StandardCharsets.UTF_8)));
      }
      copy.remove("stringData");
      return copy;
    }
    if ("ClusterRole".equals(kind)
        && desired.hasNonNull("aggregationRule")
        && desired.has("rules")) {
      ObjectNode copy = desired.deepCopy();
      copy.remove("rules");
      return copy;
    }
    return desired;
  }

  /**
   * {@code desired} with the entries others added to a ServiceAccount's secret lists kept (the
   * existing list, then the desired entries it lacks), as OLM keeps them: the agent ensures its
   * entries without removing anyone else's.
   */
  public static JsonNode keepingAddedEntries(JsonNode existing, JsonNode desired) {
    if (!"ServiceAccount".equals(desired.path("kind").asText())) {
      return desired;
    }
    ObjectNode copy = null;
    for (String field : SERVICE_ACCOUNT_LISTS) {
      JsonNode wanted = desired.path(field);
      JsonNode present = existing.path(field);
      if (!wanted.isArray() || !present.isArray()) {
        continue;
      }
      ArrayNode merged = present.deepCopy();
      for (JsonNode entry : wanted) {
        if (!contains(merged, entry)) {
          merged.add(entry.deepCopy());
        }
      }
      copy = copy == null ? desired.deepCopy() : copy;
      copy.set(field, merged);
    }
    return copy == null ? desired : copy;
  }

  private static boolean contains(ArrayNode list, JsonNode entry) {
    for (JsonNode item : list) {
      if (Subset.contains(item, entry)) {
        return true;
      }
    }
    return false;
  }
}
