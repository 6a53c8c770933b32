package io.olmstead.agent.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.olmstead.olmcore.lifecycle.DeploymentState;

/**
 * Reads health from observed objects: a Deployment's availability, a CRD's Established condition.
 * Pure.
 */
public final class WorkloadStatus {
  private WorkloadStatus() {}

  /**
   * The olm-core view of a Deployment: available only when the controller has seen the current spec
   * ({@code observedGeneration >= generation}) and reports Available=True; failed when
   * Progressing=False with ProgressDeadlineExceeded. A missing deployment is progressing (it was
   * just applied or is being restored).
   */
  public static DeploymentState deployment(String name, JsonNode deployment) {
    if (deployment == null || deployment.isMissingNode()) {
      return DeploymentState.progressing(name);
    }
    long generation = deployment.path("metadata").path("generation").asLong(0);
    JsonNode status = deployment.path("status");
    boolean current = status.path("observedGeneration").asLong(0) >= generation;
    boolean available =
        current && "True".equals(condition(status, "Available").path("status").asText());
    JsonNode progressing = condition(status, "Progressing");
    boolean deadline =
        current
            && "False".equals(progressing.path("status").asText())
            && "ProgressDeadlineExceeded".equals(progressing.path("reason").asText());
    if (available) {
      return DeploymentState.available(name);
    }
    return deadline ? DeploymentState.deadlineExceeded(name) : DeploymentState.progressing(name);
  }

  /** True when the CRD's Established condition is True. */
  public static boolean established(JsonNode crd) {
    return crd != null
        && "True".equals(condition(crd.path("status"), "Established").path("status").asText());
  }

  /** The condition of {@code type} in a status, a missing node when absent. */
  public static JsonNode condition(JsonNode status, String type) {
    for (JsonNode c : status.path("conditions")) {
      if (type.equals(c.path("type").asText())) {
        return c;
      }
    }
    return MissingNode.getInstance();
  }
}
