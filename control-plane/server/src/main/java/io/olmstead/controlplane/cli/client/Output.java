package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.PrintWriter;
import java.util.List;

/**
 * The {@code -o} formats, the same on every command that prints objects: {@code table} (default;
 * long names and label lists cut to fit), {@code wide} (every column, nothing cut), {@code name}
 * ({@code kind/name}, one a line, for scripts), {@code json} and {@code yaml} (what the API
 * answered).
 */
public enum Output {
  table,
  wide,
  name,
  json,
  yaml;

  static final YAMLMapper YAML =
      YAMLMapper.builder()
          .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
          .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
          .build();

  /** The option's description, shared by every command that takes {@code -o}. */
  static final String HELP = "table, wide, name, json or yaml (default: ${DEFAULT-VALUE})";

  /** json or yaml: the API's answer printed as it is. */
  boolean raw() {
    return this == json || this == yaml;
  }

  /** Prints one object, or a list (as {@code {"items": [...]}}), as JSON or YAML. */
  static void print(PrintWriter out, Output format, JsonNode node) {
    try {
      if (format == yaml) {
        out.print(YAML.writeValueAsString(node));
      } else {
        out.println(
            Api.JSON.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(node));
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

  /**
   * {@code text} cut to {@code max} characters with {@code ...} in the middle, so both the start
   * and the distinctive end of a generated name (a hosted cluster's {@code <namespace>-<name>})
   * stay visible.
   */
  static String fit(String text, int max) {
    if (text == null || text.length() <= max || max < 8) {
      return text;
    }
    int tail = (max - 3) / 2;
    int head = max - 3 - tail;
    return text.substring(0, head) + "..." + text.substring(text.length() - tail);
  }

  /** {@code text} cut at its end to {@code max} characters, ending {@code ...}. */
  static String cut(String text, int max) {
    if (text == null || text.length() <= max || max < 4) {
      return text;
    }
    return text.substring(0, max - 3) + "...";
  }
}
