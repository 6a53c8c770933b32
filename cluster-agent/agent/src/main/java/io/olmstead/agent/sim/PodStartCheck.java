package io.olmstead.agent.sim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SIMULATION ONLY: what a real kubelet and ReplicaSet controller would refuse to start a
 * Deployment's pods for. The pods' service account must exist ({@code default} always does); every
 * Secret and ConfigMap a container mounts (volumes a container or init container mounts, projected
 * sources included), takes with {@code envFrom} or reads a key of with {@code env[].valueFrom} must
 * exist, unless marked {@code optional: true}. Volumes no container mounts are ignored, as the
 * kubelet ignores them. Pure: objects are looked up through {@link Lookup}.
 */
final class PodStartCheck {
  /** Reads one object of the Deployment's namespace; empty when absent. */
  @FunctionalInterface
  interface Lookup {
    Optional<JsonNode> find(String kind, String name);
  }

  private PodStartCheck() {}

  /** Why the pods cannot start (naming the first missing object), empty when they can. */
  static Optional<String> missing(JsonNode deployment, Lookup lookup) {
    JsonNode pod = deployment.path("spec").path("template").path("spec");
    String serviceAccount =
        pod.path("serviceAccountName").asText(pod.path("serviceAccount").asText(""));
    if (!serviceAccount.isEmpty()
        && !"default".equals(serviceAccount)
        && lookup.find("ServiceAccount", serviceAccount).isEmpty()) {
      return Optional.of(
          "error looking up service account: serviceaccount \"" + serviceAccount + "\" not found");
    }
    List<JsonNode> containers = new ArrayList<>();
    pod.path("initContainers").forEach(containers::add);
    pod.path("containers").forEach(containers::add);
    List<String> mounted = new ArrayList<>();
    containers.forEach(
        c -> c.path("volumeMounts").forEach(m -> mounted.add(m.path("name").asText())));
    for (JsonNode volume : pod.path("volumes")) {
      if (!mounted.contains(volume.path("name").asText())) {
        continue;
      }
      List<JsonNode> sources = new ArrayList<>(List.of(volume));
      volume.path("projected").path("sources").forEach(sources::add);
      for (JsonNode source : sources) {
        Optional<String> problem = volumeSource(volume.path("name").asText(), source, lookup);
        if (problem.isPresent()) {
          return problem;
        }
      }
    }
    for (JsonNode container : containers) {
      Optional<String> problem = environment(container, lookup);
      if (problem.isPresent()) {
        return problem;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> volumeSource(String volume, JsonNode source, Lookup lookup) {
    JsonNode secret = source.path("secret");
    String secretName = secret.path("secretName").asText(secret.path("name").asText(""));
    if (secret.isObject()
        && !secret.path("optional").asBoolean(false)
        && lookup.find("Secret", secretName).isEmpty()) {
      return Optional.of(
          "MountVolume.SetUp failed for volume \""
              + volume
              + "\": secret \""
              + secretName
              + "\" not found");
    }
    JsonNode configMap = source.path("configMap");
    String mapName = configMap.path("name").asText("");
    if (configMap.isObject()
        && !configMap.path("optional").asBoolean(false)
        && lookup.find("ConfigMap", mapName).isEmpty()) {
      return Optional.of(
          "MountVolume.SetUp failed for volume \""
              + volume
              + "\": configmap \""
              + mapName
              + "\" not found");
    }
    return Optional.empty();
  }

  private static Optional<String> environment(JsonNode container, Lookup lookup) {
    for (JsonNode from : container.path("envFrom")) {
      for (String[] ref :
          new String[][] {
            {"secretRef", "Secret", "secret"}, {"configMapRef", "ConfigMap", "configmap"}
          }) {
        JsonNode r = from.path(ref[0]);
        if (r.isObject()
            && !r.path("optional").asBoolean(false)
            && lookup.find(ref[1], r.path("name").asText()).isEmpty()) {
          return Optional.of(
              "CreateContainerConfigError: "
                  + ref[2]
                  + " \""
                  + r.path("name").asText()
                  + "\" not found");
        }
      }
    }
    for (JsonNode env : container.path("env")) {
      for (String[] ref :
          new String[][] {
            {"secretKeyRef", "Secret", "secret"}, {"configMapKeyRef", "ConfigMap", "configmap"}
          }) {
        JsonNode r = env.path("valueFrom").path(ref[0]);
        if (!r.isObject() || r.path("optional").asBoolean(false)) {
          continue;
        }
        String name = r.path("name").asText();
        Optional<JsonNode> found = lookup.find(ref[1], name);
        if (found.isEmpty()) {
          return Optional.of(
              "CreateContainerConfigError: " + ref[2] + " \"" + name + "\" not found");
        }
        String key = r.path("key").asText();
        if (!found.get().path("data").has(key)
            && !found.get().path("stringData").has(key)
            && !found.get().path("binaryData").has(key)) {
          return Optional.of(
              "CreateContainerConfigError: couldn't find key "
                  + key
                  + " in "
                  + ref[2]
                  + " \""
                  + name
                  + "\"");
        }
      }
    }
    return Optional.empty();
  }
}
