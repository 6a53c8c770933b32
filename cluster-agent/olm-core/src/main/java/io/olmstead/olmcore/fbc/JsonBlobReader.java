package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads one JSON blob like {@code readTree}, except that the value of an {@code olm.csv.metadata}
 * property is only tokenized (so syntax, limits and its shape ({@link CsvMetadataShape}) are still
 * checked) and kept as its raw bytes: it is most of a catalog's bytes and rarely read, so it is
 * decoded on first use ({@link Bundle#csvMetadata()}, {@link Bundle#properties()}).
 */
final class JsonBlobReader {

  static final String CSV_METADATA = "olm.csv.metadata";

  private final ObjectMapper mapper;
  private final byte[] input;

  JsonBlobReader(ObjectMapper mapper, byte[] input) {
    this.mapper = mapper;
    this.input = input;
  }

  /** Reads the object at the current START_OBJECT token. */
  ObjectNode read(JsonParser p) throws IOException {
    ObjectNode blob = JsonNodeFactory.instance.objectNode();
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      blob.set(
          name,
          "properties".equals(name) && v == JsonToken.START_ARRAY ? properties(p) : value(p, v));
    }
    if (t != JsonToken.END_OBJECT) {
      throw new IOException("unexpected token " + t);
    }
    return blob;
  }

  private ArrayNode properties(JsonParser p) throws IOException {
    ArrayNode props = JsonNodeFactory.instance.arrayNode();
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      props.add(t == JsonToken.START_OBJECT ? property(p) : value(p, t));
    }
    return props;
  }

  private ObjectNode property(JsonParser p) throws IOException {
    ObjectNode prop = JsonNodeFactory.instance.objectNode();
    String type = null;
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      if ("value".equals(name) && v == JsonToken.START_OBJECT && CSV_METADATA.equals(type)) {
        long start = p.currentTokenLocation().getByteOffset();
        String problem = CsvMetadataShape.check(p); // walks the value like skipChildren would
        long end = p.currentLocation().getByteOffset();
        if (start >= 0 && end <= input.length && start < end) {
          prop.set(
              name,
              JsonNodeFactory.instance.pojoNode(
                  new RawJson(Arrays.copyOfRange(input, (int) start, (int) end), problem)));
          continue;
        }
        throw new IOException("cannot locate property value");
      }
      JsonNode node = value(p, v);
      if ("type".equals(name) && node.isTextual()) {
        type = node.textValue();
      }
      prop.set(name, node);
    }
    if (t != JsonToken.END_OBJECT) {
      throw new IOException("unexpected token " + t);
    }
    return prop;
  }

  private JsonNode value(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return JsonNodeFactory.instance.nullNode();
    }
    JsonNode n = mapper.readTree(p);
    return n == null ? JsonNodeFactory.instance.nullNode() : n;
  }

  /** The undecoded bytes of one JSON object value and its shape problem (null when well-shaped). */
  record RawJson(byte[] bytes, String problem) {

    JsonNode decode() {
      try {
        JsonNode n = Mappers.JSON.readTree(bytes);
        return n == null ? JsonNodeFactory.instance.nullNode() : n;
      } catch (IOException e) {
        // the bytes were tokenized at parse time, so this cannot happen for input we accepted
        return JsonNodeFactory.instance.textNode(new String(bytes, StandardCharsets.UTF_8));
      }
    }
  }
}
