package io.olmstead.agent.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.k8s.WorkloadStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIMULATION ONLY: plays the controllers a mock API server lacks. CRDs become Established (with
 * their storage version recorded in {@code storedVersions}) and Deployments become Available a
 * short delay after each new spec generation, once every object their pods need exists ({@link
 * PodStartCheck}; until then Available=False names the missing one, re-checked every round); on a
 * cluster configured to fail, Deployments report ProgressDeadlineExceeded.
 */
public final class KubeletStandIn implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KubeletStandIn.class);
  private static final String CRD_API = "apiextensions.k8s.io/v1";
  private static final ResourceKinds.Kind CRD =
      new ResourceKinds.Kind(CRD_API, "CustomResourceDefinition");

  private final ResourceOperator resources;
  private final Duration delay;
  private final boolean failDeployments;
  private final ScheduledExecutorService timer;
  private final Map<String, Instant> firstSeen = new ConcurrentHashMap<>();
  private volatile boolean closed;

  public KubeletStandIn(
      String clusterName, ResourceOperator resources, Duration delay, boolean failDeployments) {
    this.resources = resources;
    this.delay = delay;
    this.failDeployments = failDeployments;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sim-kubelet-" + clusterName);
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts polling every {@code period} (a fraction of the delay keeps transitions prompt). */
  public KubeletStandIn start(Duration period) {
    timer.scheduleWithFixedDelay(this::tick, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /** One round over all CRDs and Deployments; public so tests can drive it deterministically. */
  public void tick() {
    try {
      for (JsonNode crd : resources.list(CRD.apiVersion(), CRD.kind(), Map.of())) {
        if (!WorkloadStatus.established(crd)
            && due("crd/" + crd.path("metadata").path("name").asText(), 0)) {
          resources.updateStatus(establish(crd));
        }
      }
      for (JsonNode deployment : resources.list("apps/v1", "Deployment", Map.of())) {
        JsonNode meta = deployment.path("metadata");
        long generation = meta.path("generation").asLong(1);
        if (deployment.path("status").path("observedGeneration").asLong(0) >= generation
            && !waitingForObjects(deployment)) {
          continue;
        }
        String key = "deploy/" + meta.path("namespace").asText() + "/" + meta.path("name").asText();
        if (due(key, generation)) {
          Optional<String> missing =
              PodStartCheck.missing(deployment, lookupIn(meta.path("namespace").asText()));
          if (missing.isEmpty()) {
            resources.updateStatus(rollOut(deployment, generation, failDeployments));
          } else if (!missing.get().equals(waitingMessage(deployment))) {
            resources.updateStatus(waiting(deployment, generation, missing.get()));
          }
        }
      }
      Instant horizon = Instant.now().minus(Duration.ofMinutes(10));
      firstSeen
          .values()
          .removeIf(seen -> seen.isBefore(horizon)); // long past due: keep the map bounded
    } catch (ResourceException | RuntimeException e) {
      if (!closed) {
        LOG.debug("simulated kubelet round failed (retrying): {}", e.getMessage());
      }
    }
  }

  private boolean due(String key, long generation) {
    Instant seen = firstSeen.computeIfAbsent(key + "@" + generation, k -> Instant.now());
    return !Instant.now().isBefore(seen.plus(delay));
  }

  static ObjectNode establish(JsonNode crd) {
    ObjectNode copy = crd.deepCopy();
    ObjectNode status = copy.withObjectProperty("status");
    ArrayNode conditions = status.putArray("conditions");
    String now = Instant.now().toString();
    conditions
        .addObject()
        .put("type", "NamesAccepted")
        .put("status", "True")
        .put("reason", "NoConflicts")
        .put("lastTransitionTime", now);
    conditions
        .addObject()
        .put("type", "Established")
        .put("status", "True")
        .put("reason", "InitialNamesAccepted")
        .put("lastTransitionTime", now);
    status.set("acceptedNames", crd.path("spec").path("names").deepCopy());
    ArrayNode stored = status.putArray("storedVersions");
    crd.path("status").path("storedVersions").forEach(stored::add);
    for (JsonNode v : crd.path("spec").path("versions")) {
      if (v.path("storage").asBoolean(false)
          && !stored.toString().contains("\"" + v.path("name").asText() + "\"")) {
        stored.add(v.path("name").asText());
      }
    }
    return copy;
  }

  private PodStartCheck.Lookup lookupIn(String namespace) {
    return (kind, name) -> {
      try {
        return resources.get("v1", kind, namespace, name);
      } catch (ResourceException e) {
        throw new IllegalStateException(e.getMessage(), e); // the round is retried
      }
    };
  }

  /**
   * A Deployment this stand-in holds unavailable because an object its pods need is missing
   * (re-checked each round).
   */
  static boolean waitingForObjects(JsonNode deployment) {
    JsonNode progressing = WorkloadStatus.condition(deployment.path("status"), "Progressing");
    return "ReplicaSetUpdated".equals(progressing.path("reason").asText());
  }

  private static String waitingMessage(JsonNode deployment) {
    return waitingForObjects(deployment)
        ? WorkloadStatus.condition(deployment.path("status"), "Available")
            .path("message")
            .asText("")
            .replaceFirst("^Deployment does not have minimum availability: ", "")
        : null;
  }

  /**
   * What a real cluster shows while the pods cannot start: Available=False naming the missing
   * object.
   */
  static ObjectNode waiting(JsonNode deployment, long generation, String missing) {
    ObjectNode copy = deployment.deepCopy();
    ObjectNode status = copy.putObject("status").put("observedGeneration", generation);
    int replicas = deployment.path("spec").path("replicas").asInt(1);
    String now = Instant.now().toString();
    status
        .put("replicas", replicas)
        .put("updatedReplicas", replicas)
        .put("unavailableReplicas", replicas);
    ArrayNode conditions = status.putArray("conditions");
    conditions
        .addObject()
        .put("type", "Available")
        .put("status", "False")
        .put("reason", "MinimumReplicasUnavailable")
        .put("message", "Deployment does not have minimum availability: " + missing)
        .put("lastTransitionTime", now);
    conditions
        .addObject()
        .put("type", "Progressing")
        .put("status", "True")
        .put("reason", "ReplicaSetUpdated")
        .put("message", "ReplicaSet is progressing; pods cannot start (simulated).")
        .put("lastTransitionTime", now);
    return copy;
  }

  static ObjectNode rollOut(JsonNode deployment, long generation, boolean fail) {
    ObjectNode copy = deployment.deepCopy();
    ObjectNode status = copy.putObject("status").put("observedGeneration", generation);
    int replicas = deployment.path("spec").path("replicas").asInt(1);
    String now = Instant.now().toString();
    ArrayNode conditions = status.putArray("conditions");
    if (fail) {
      status.put("replicas", replicas).put("unavailableReplicas", replicas);
      conditions
          .addObject()
          .put("type", "Available")
          .put("status", "False")
          .put("reason", "MinimumReplicasUnavailable")
          .put("message", "Deployment does not have minimum availability.")
          .put("lastTransitionTime", now);
      conditions
          .addObject()
          .put("type", "Progressing")
          .put("status", "False")
          .put("reason", "ProgressDeadlineExceeded")
          .put("message", "ReplicaSet has timed out progressing (simulated failure).")
          .put("lastTransitionTime", now);
    } else {
      status
          .put("replicas", replicas)
          .put("readyReplicas", replicas)
          .put("availableReplicas", replicas)
          .put("updatedReplicas", replicas);
      conditions
          .addObject()
          .put("type", "Available")
          .put("status", "True")
          .put("reason", "MinimumReplicasAvailable")
          .put("message", "Deployment has minimum availability.")
          .put("lastTransitionTime", now);
      conditions
          .addObject()
          .put("type", "Progressing")
          .put("status", "True")
          .put("reason", "NewReplicaSetAvailable")
          .put("message", "ReplicaSet has successfully progressed (simulated).")
          .put("lastTransitionTime", now);
    }
    return copy;
  }

  @Override
  public void close() {
    closed = true;
    timer.shutdownNow();
  }
}
