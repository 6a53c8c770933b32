package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.controlplane.http.ApiContract;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class ArgumentNamesTest {
  @Test
  void theCliChecksNamesAndRolloutIdsWithTheSpecsPatterns() throws Exception {
    JsonNode spec;
    try (InputStream in =
        ArgumentNamesTest.class.getClassLoader().getResourceAsStream(ApiContract.RESOURCE)) {
      spec = Output.YAML.readTree(in);
    }
    JsonNode name = spec.path("components").path("schemas").path("Name");
    assertThat(name.path("pattern").asText()).isEqualTo(ArgumentNames.NAME.pattern());
    assertThat(name.path("maxLength").asInt()).isEqualTo(ArgumentNames.NAME_MAX);
    assertThat(
            spec.path("components")
                .path("parameters")
                .path("RolloutIdPath")
                .path("schema")
                .path("pattern")
                .asText())
        .isEqualTo(ArgumentNames.ROLLOUT_ID.pattern());
    for (String path :
        new String[] {"/clusters/{name}", "/subscriptions/{name}", "/catalogs/{name}"}) {
      assertThat(spec.path("paths").path(path).path("parameters").path(0).path("$ref").asText())
          .as(path)
          .isEqualTo("#/components/parameters/NamePath");
    }
  }

  @Test
  void aBadRolloutIdIsAUsageLineNamingTheArgumentAndWhatIsValid() {
    assertThat(ArgumentNames.rolloutId("ro-0123abcd-ef")).isEqualTo("ro-0123abcd-ef");
    assertThatThrownBy(() -> ArgumentNames.rolloutId("nope"))
        .isInstanceOfSatisfying(
            CliException.class,
            e -> {
              assertThat(e.exitCode()).isEqualTo(ExitCodes.USAGE);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "the rollout ID 'nope' must be ro- followed by up to 40 hex digits or '-', "
                          + "as olmstead get rollouts lists them");
            });
  }

  @Test
  void aBadNameIsAUsageLineNamingTheKindAndWhatIsValid() {
    assertThat(ArgumentNames.name("cluster", "eu-0001")).isEqualTo("eu-0001");
    for (String bad : new String[] {"Eu_1", "-eu", "eu-", "a".repeat(64), "eu\n1"}) {
      assertThatThrownBy(() -> ArgumentNames.name("cluster", bad))
          .as(bad)
          .isInstanceOfSatisfying(
              CliException.class,
              e -> {
                assertThat(e.exitCode()).isEqualTo(ExitCodes.USAGE);
                assertThat(e.getMessage())
                    .startsWith("the cluster NAME '")
                    .endsWith(
                        "' must be 1-63 lower-case letters, digits or '-', starting and ending "
                            + "with a letter or digit (a DNS-1123 label)")
                    .doesNotContain("\n");
              });
    }
  }
}
