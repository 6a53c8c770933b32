package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.olmstead.controlplane.dev.DemoCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README's CLI walk-through applies {@code docs/examples/*.yaml} on {@code dev --simulate 3}:
 * the files must parse as {@code olmstead apply} reads them and name what the dev demo catalog
 * holds (package, channel, both versions), so a newcomer's {@code apply} is not refused.
 */
class ReadmeExamplesTest {
  /** Tests run in the module's directory, as {@code CliClientIT} reading docs/cli.md. */
  private static final Path EXAMPLES = Path.of("..", "..", "docs", "examples");

  private static List<JsonNode> demoCatalog() throws IOException {
    String text = new String(DemoCatalog.content(), StandardCharsets.UTF_8);
    return new YAMLMapper()
        .readValues(new YAMLMapper().getFactory().createParser(text), JsonNode.class)
        .readAll();
  }

  private static ApplyDocuments.Doc only(String file) throws IOException {
    Path path = EXAMPLES.resolve(file);
    List<ApplyDocuments.Doc> docs = ApplyDocuments.parse(file, Files.readString(path));
    assertThat(docs).as(path.toString()).hasSize(1);
    return docs.get(0);
  }

  @Test
  void theReadmeSubscriptionNamesThePackageAndChannelOfTheDevDemoCatalog() throws IOException {
    ApplyDocuments.Doc sub = only("demo-subscription.yaml");
    assertThat(sub.kind()).isEqualTo("Subscription");
    assertThat(sub.name()).isEqualTo("demo-operator");
    JsonNode spec = sub.spec();
    assertThat(spec.path("catalog").asText()).isEqualTo(DemoCatalog.NAME);
    assertThat(spec.path("placement").path("selector").asText()).isEqualTo("env=dev");
    String pkg = spec.path("package").asText();
    String channel = spec.path("channel").asText();
    JsonNode channelDoc =
        demoCatalog().stream()
            .filter(
                d ->
                    d.path("schema").asText().equals("olm.channel")
                        && d.path("package").asText().equals(pkg)
                        && d.path("name").asText().equals(channel))
            .findFirst()
            .orElseThrow(
                () -> new AssertionError("no channel " + channel + " of " + pkg + " in the demo"));
    assertThat(channelDoc.path("entries").findValuesAsText("name"))
        .contains(pkg + ".v" + spec.path("version").path("pin").asText());
  }

  @Test
  void theReadmeSubscriptionRollsOutUnderItsOwnStrategyToAVersionOfTheSameChannelAboveThePin()
      throws IOException {
    JsonNode spec = only("demo-subscription.yaml").spec();
    assertThat(spec.path("rolloutStrategy").path("canary").path("count").asInt()).isEqualTo(1);
    assertThat(spec.path("rolloutStrategy").path("batchSize").asInt()).isEqualTo(1);
    // the README changes the pin to 0.3.0: a version of the same channel
    assertThat(demoCatalog())
        .anyMatch(
            d ->
                d.path("schema").asText().equals("olm.channel")
                    && d.path("package").asText().equals(spec.path("package").asText())
                    && d.path("name").asText().equals(spec.path("channel").asText())
                    && d.path("entries")
                        .findValuesAsText("name")
                        .contains("olmstead-demo-operator.v0.3.0"));
  }
}
