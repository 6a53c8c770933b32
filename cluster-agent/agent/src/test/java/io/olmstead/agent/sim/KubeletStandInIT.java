package io.olmstead.agent.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.k8s.WorkloadStatus;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The simulated kubelet against the fabric8 mock API server: a Deployment is Available only when
 * its pods could start.
 */
@EnableKubernetesMockClient(crud = true)
class KubeletStandInIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  KubernetesClient client;
  private ResourceOperator resources;
  private KubeletStandIn kubelet;

  @BeforeEach
  void setUp() {
    resources = new ResourceOperator(client, new ResourceKinds());
    kubelet =
        new KubeletStandIn(
            "it", resources, Duration.ZERO, false); // driven by tick(), never started
  }

  @AfterEach
  void tearDown() {
    kubelet.close();
  }

  @Test
  void aDeploymentStaysUnavailableNamingItsMissingSecretAndBecomesAvailableOnceItExists()
      throws Exception {
    resources.apply(
        JSON.readTree(
            """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"hooks","namespace":"ops"},
         "spec":{"selector":{"matchLabels":{"app":"hooks"}},"template":{"metadata":{"labels":{"app":"hooks"}},
          "spec":{"volumes":[{"name":"cert","secret":{"secretName":"hooks-cert"}}],
           "containers":[{"name":"m","image":"hooks:1","volumeMounts":[{"name":"cert","mountPath":"/certs"}]}]}}}}"""));

    kubelet.tick();
    kubelet.tick();

    JsonNode waiting = deployment();
    assertThat(WorkloadStatus.deployment("hooks", waiting).available()).isFalse();
    assertThat(
            WorkloadStatus.condition(waiting.path("status"), "Available").path("message").asText())
        .contains("secret \"hooks-cert\" not found");

    resources.apply(
        JSON.readTree(
            """
        {"apiVersion":"v1","kind":"Secret","metadata":{"name":"hooks-cert","namespace":"ops"},"data":{"tls.crt":"eA=="}}"""));
    kubelet.tick();

    assertThat(WorkloadStatus.deployment("hooks", deployment()).available()).isTrue();
  }

  private JsonNode deployment() throws Exception {
    return resources.get("apps/v1", "Deployment", "ops", "hooks").orElseThrow();
  }
}
