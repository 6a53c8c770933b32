package io.olmstead.controlplane.problem;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiContract;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValueShapesTest {
  @Test
  void aNameIsDescribedAsADns1123LabelWithItsLength() {
    assertThat(ValueShapes.name())
        .isEqualTo(
            "1-63 lower-case letters, digits or '-', starting and ending with a letter or digit"
                + " (a DNS-1123 label)");
    assertThat(
            ValueShapes.describe(
                new JsonObject()
                    .put("type", "string")
                    .put("minLength", 1)
                    .put("maxLength", 63)
                    .put("pattern", ValueShapes.NAME_PATTERN)))
        .isEqualTo(ValueShapes.name());
  }

  @Test
  void aPatternThatFixesItsLengthIsDescribedWithoutTheSchemasLength() {
    assertThat(ValueShapes.rolloutId()).isEqualTo("ro- followed by up to 40 hex digits or '-'");
    assertThat(
            ValueShapes.describe(
                new JsonObject().put("pattern", "^sha256:[a-f0-9]{64}$").put("maxLength", 71)))
        .isEqualTo("sha256: followed by 64 lower-case hex digits");
  }

  @Test
  void lengthsRangesAndEnumsAreSaidInWords() {
    assertThat(ValueShapes.describe(new JsonObject().put("type", "string").put("maxLength", 64)))
        .isEqualTo("at most 64 characters");
    assertThat(
            ValueShapes.describe(
                new JsonObject().put("type", "string").put("minLength", 1).put("maxLength", 253)))
        .isEqualTo("1-253 characters");
    assertThat(
            ValueShapes.describe(
                new JsonObject().put("type", "integer").put("minimum", 1).put("maximum", 500)))
        .isEqualTo("an integer from 1 to 500");
    assertThat(
            ValueShapes.describe(
                new JsonObject().put("enum", new JsonArray().add("Online").add("Offline"))))
        .isEqualTo("one of Online, Offline");
    assertThat(ValueShapes.describe(new JsonObject().put("pattern", "^x+$").put("maxLength", 9)))
        .isEqualTo("at most 9 characters matching ^x+$");
  }

  @Test
  void anEchoedValueIsOneLineOfAtMost80Characters() {
    assertThat(ValueShapes.shown("a\nb")).isEqualTo("a?b");
    assertThat(ValueShapes.shown("a".repeat(300))).hasSize(80).endsWith("...");
  }

  /** A parameter pattern without words would answer "matching ^...$": the spec and words agree. */
  @Test
  void everyParameterPatternInTheSpecHasWords() {
    JsonObject spec = ApiContract.load().published();
    List<JsonObject> parameters = new ArrayList<>();
    JsonObject components = spec.getJsonObject("components");
    JsonObject shared = components.getJsonObject("parameters");
    shared.fieldNames().forEach(name -> parameters.add(shared.getJsonObject(name)));
    JsonObject paths = spec.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      JsonObject item = paths.getJsonObject(path);
      collect(item, parameters);
      for (String key : item.fieldNames()) {
        if (item.getValue(key) instanceof JsonObject operation) {
          collect(operation, parameters);
        }
      }
    }
    List<String> patterns = new ArrayList<>();
    for (JsonObject parameter : parameters) {
      JsonObject schema = parameter.getJsonObject("schema", new JsonObject());
      String ref = schema.getString("$ref");
      if (ref != null) {
        schema =
            components
                .getJsonObject("schemas")
                .getJsonObject(ref.substring(ref.lastIndexOf('/') + 1));
      }
      String pattern = schema.getString("pattern");
      if (pattern != null) {
        patterns.add(pattern);
      }
    }
    assertThat(patterns)
        .isNotEmpty()
        .allSatisfy(p -> assertThat(ValueShapes.known(p)).as(p).isTrue());
  }

  private static void collect(JsonObject owner, List<JsonObject> parameters) {
    JsonArray list = owner.getJsonArray("parameters");
    if (list == null) {
      return;
    }
    for (Object parameter : list) {
      if (parameter instanceof JsonObject json && json.getString("$ref") == null) {
        parameters.add(json);
      }
    }
  }
}
