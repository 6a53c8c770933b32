package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.PrintWriter;
import java.util.List;

/** The {@code -o} formats: {@code table} (default), {@code json} and {@code yaml} of what the API answered. */
public enum Output {
  table, json, yaml;

  static final YAMLMapper YAML = YAMLMapper.builder().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES).build();

  /** Prints one object, or a list (as {@code {"items": [...]}}), as JSON or YAML. */
  static void print(PrintWriter out, Output format, JsonNode node) {
    try {
      if (format == yaml) {
        out.print(YAML.writeValueAsString(node));
      } else {
        out.println(Api.JSON.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(node));
      }
      out.flush();
    } catch (JsonProcessingException e) {
      throw new CliException(ExitCodes.ERROR, "cannot print the answer: " + e.getOriginalMessage());
    }
  }

  static JsonNode itemsOf(List<JsonNode> items) {
    ArrayNode array = Api.JSON.createArrayNode();
    items.forEach(array::add);
    return Api.JSON.createObjectNode().set("items", array);
  }
}
