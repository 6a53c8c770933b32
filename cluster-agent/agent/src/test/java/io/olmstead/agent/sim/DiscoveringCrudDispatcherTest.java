package io.olmstead.agent.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DiscoveringCrudDispatcherTest {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private KubernetesMockServer server;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new DiscoveringCrudDispatcher(),
            false);
    server.init();
    client = server.createClient();
  }

  @AfterEach
  void stop() {
    client.close();
    server.destroy();
  }

  @Test
  void discoveryFollowsTheCrdsInTheMockAsTheyComeAndGo() throws Exception {
    assertThat(get("/apis/demo.olmstead.io/v1").statusCode()).isEqualTo(404);
    CustomResourceDefinition crd =
        client
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .resource(
                new CustomResourceDefinitionBuilder()
                    .withNewMetadata()
                    .withName("demos.demo.olmstead.io")
                    .endMetadata()
                    .withNewSpec()
                    .withGroup("demo.olmstead.io")
                    .withScope("Namespaced")
                    .withNewNames()
                    .withKind("Demo")
                    .withPlural("demos")
                    .withSingular("demo")
                    .endNames()
                    .addNewVersion()
                    .withName("v1")
                    .withServed(true)
                    .withStorage(true)
                    .endVersion()
                    .endSpec()
                    .build())
            .create();
    assertThat(get("/apis").body()).contains("\"demo.olmstead.io/v1\"");
    assertThat(get("/apis/demo.olmstead.io/v1?timeout=32s").body())
        .contains("\"name\":\"demos\"", "\"kind\":\"Demo\"");
    // a write to another object moves the mock's counter, not the CRDs: the same answer
    client
        .configMaps()
        .inNamespace("default")
        .resource(new ConfigMapBuilder().withNewMetadata().withName("x").endMetadata().build())
        .create();
    assertThat(get("/apis/demo.olmstead.io/v1").statusCode()).isEqualTo(200);

    client.apiextensions().v1().customResourceDefinitions().resource(crd).delete();
    assertThat(get("/apis/demo.olmstead.io/v1").statusCode()).isEqualTo(404);
    assertThat(get("/apis").body()).doesNotContain("demo.olmstead.io").contains("\"apps/v1\"");
  }

  @Test
  void versionCoreApiAndAnEmptyOpenApiV2AreAnsweredAndEverythingElseIsTheCrudMock()
      throws Exception {
    assertThat(get("/version").body()).contains(DiscoveringCrudDispatcher.GIT_VERSION);
    assertThat(get("/api").body()).contains("\"versions\":[\"v1\"]");
    assertThat(get("/api/v1").body()).contains("\"name\":\"namespaces\"");
    HttpResponse<String> openapi = get("/openapi/v2");
    assertThat(openapi.statusCode()).isEqualTo(200);
    assertThat(openapi.body()).isEmpty();
    assertThat(get("/openapi/v3").statusCode()).isEqualTo(404);
    client
        .configMaps()
        .inNamespace("default")
        .resource(new ConfigMapBuilder().withNewMetadata().withName("cm").endMetadata().build())
        .create();
    assertThat(get("/api/v1/namespaces/default/configmaps/cm").body()).contains("\"name\":\"cm\"");
  }

  private HttpResponse<String> get(String path) throws Exception {
    URI uri = URI.create(client.getMasterUrl().toString().replaceAll("/$", "") + path);
    return HTTP.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
  }
}
