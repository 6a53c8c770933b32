package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.FbcException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Catalog content from the control plane is parsed in the format it was uploaded in. */
class ControlPlaneCatalogsTest {
  private static final String YAML = """
      ---
      schema: olm.package
      name: demo
      defaultChannel: stable
      ---
      schema: olm.channel
      package: demo
      name: stable
      entries:
      - name: demo.v1.0.0
      ---
      schema: olm.bundle
      name: demo.v1.0.0
      package: demo
      image: example.com/demo-bundle:v1.0.0
      properties:
      - type: olm.package
        value: {packageName: demo, version: 1.0.0}
      """;

  @Test
  void yamlContentIsParsedAsYamlWhenTheMediaTypeSaysSo() throws Exception {
    Catalog catalog = ControlPlaneCatalogs.parse(YAML.getBytes(StandardCharsets.UTF_8), "application/yaml");
    assertThat(catalog.pkg("demo")).isPresent();
    assertThat(catalog.bundleCount()).isEqualTo(1);
  }

  @Test
  void jsonContentStillParsesWithoutAMediaType() throws Exception {
    String json = "{\"schema\":\"olm.package\",\"name\":\"demo\"}\n";
    assertThat(ControlPlaneCatalogs.parse(json.getBytes(StandardCharsets.UTF_8)).pkg("demo")).isPresent();
  }

  @Test
  void yamlServedAsJsonIsRejected() {
    assertThatThrownBy(() -> ControlPlaneCatalogs.parse(YAML.getBytes(StandardCharsets.UTF_8), "application/json"))
        .isInstanceOf(FbcException.class);
  }
}
