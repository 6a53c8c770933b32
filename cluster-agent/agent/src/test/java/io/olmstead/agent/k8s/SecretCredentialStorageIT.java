package io.olmstead.agent.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The credential Secret against the fabric8 mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
class SecretCredentialStorageIT {
  KubernetesClient client;

  private Secret secret() {
    return client.secrets().inNamespace("olmstead-agent").withName("cred").get();
  }

  @Test
  void savesReopensReplacesAndClears() {
    SecretCredentialStorage first = SecretCredentialStorage.open(client, "olmstead-agent", "cred");
    assertThat(first.load()).isEmpty();
    first.save("c1");
    assertThat(first.load()).contains("c1");
    first.close();
    assertThat(
            new String(
                Base64.getDecoder().decode(secret().getData().get("credential")),
                StandardCharsets.UTF_8))
        .isEqualTo("c1");

    SecretCredentialStorage second = SecretCredentialStorage.open(client, "olmstead-agent", "cred");
    assertThat(second.load()).contains("c1");
    second.save("c2");
    second.close();
    assertThat(SecretCredentialStorage.open(client, "olmstead-agent", "cred").load())
        .contains("c2");

    SecretCredentialStorage third = SecretCredentialStorage.open(client, "olmstead-agent", "cred");
    third.clear();
    assertThat(third.load()).isEmpty();
    third.close();
    await().atMost(Duration.ofSeconds(5)).until(() -> secret() == null);
    assertThat(SecretCredentialStorage.open(client, "olmstead-agent", "cred").load()).isEmpty();
  }
}
