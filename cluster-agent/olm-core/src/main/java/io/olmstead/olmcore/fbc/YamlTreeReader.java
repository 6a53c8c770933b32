package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Builds a tree from one YAML document, token by token. Jackson's YAML parser reports an alias as
 * its anchor name instead of expanding it, so anchors and aliases are resolved here, bounded by the
 * alias count and by the expanded node count (alias bombs), together with the nesting depth and
 * duplicate keys.
 */
final class YamlTreeReader {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final YAMLParser parser;
  private final String file;
  private final ParseLimits limits;
  private final long maxNodes;
  private final Map<String, Anchored> anchors = new HashMap<>();

  /**
   * Keys repeat in every blob; sharing one String per key (as Jackson's JSON parser does) saves
   * heap.
   */
  private final Map<String, String> keys = new HashMap<>();

  private int aliases;
  private long nodes;

  private record Anchored(JsonNode node, long size) {}

  YamlTreeReader(YAMLParser parser, String file, ParseLimits limits) {
    this.parser = parser;
    this.file = file;
    this.limits = limits;
    this.maxNodes = Math.max(10_000L, limits.maxBlobBytes() / 4);
  }

  /** Reads the value starting at the current token (anchors are scoped to one document). */
  JsonNode readDocument() throws IOException, FbcException {
    anchors.clear();
    aliases = 0;
    nodes = 0;
    return read(parser.currentToken(), 1);
  }

  private JsonNode read(JsonToken t, int depth) throws IOException, FbcException {
    if (depth > limits.maxNestingDepth()) {
      throw error("nesting depth exceeds the limit of " + limits.maxNestingDepth());
    }
    if (++nodes > maxNodes) {
      throw error("document expands to more than " + maxNodes + " nodes");
    }
    String anchor = parser.getObjectId();
    long before = nodes;
    JsonNode node;
    switch (t) {
      case START_OBJECT -> node = readObject(depth);
      case START_ARRAY -> node = readArray(depth);
      case VALUE_STRING -> {
        if (parser.isCurrentAlias()) {
          return alias(parser.getText());
        }
        node = NODES.textNode(parser.getText());
      }
      case VALUE_NUMBER_INT ->
          node =
              switch (parser.getNumberType()) {
                case INT -> NODES.numberNode(parser.getIntValue());
                case LONG -> NODES.numberNode(parser.getLongValue());
                default -> NODES.numberNode(parser.getBigIntegerValue());
              };
      case VALUE_NUMBER_FLOAT -> node = NODES.numberNode(parser.getDoubleValue());
      case VALUE_TRUE -> node = NODES.booleanNode(true);
      case VALUE_FALSE -> node = NODES.booleanNode(false);
      case VALUE_NULL -> node = NODES.nullNode();
      default -> throw error("unexpected token " + t);
    }
    if (anchor != null) {
      anchors.put(anchor, new Anchored(node, nodes - before + 1));
    }
    return node;
  }

  private ObjectNode readObject(int depth) throws IOException, FbcException {
    ObjectNode o = NODES.objectNode();
    JsonToken t;
    while ((t = parser.nextToken()) != JsonToken.END_OBJECT) {
      if (t != JsonToken.FIELD_NAME) {
        throw error("unexpected token " + t + " in mapping");
      }
      String key = canonical(parser.currentName());
      if (o.has(key)) {
        throw error("duplicate key \"" + key + "\"");
      }
      o.set(key, read(parser.nextToken(), depth + 1));
    }
    return o;
  }

  private ArrayNode readArray(int depth) throws IOException, FbcException {
    ArrayNode a = NODES.arrayNode();
    JsonToken t;
    while ((t = parser.nextToken()) != JsonToken.END_ARRAY) {
      if (t == null) {
        throw error("unexpected end of input in sequence");
      }
      a.add(read(t, depth + 1));
    }
    return a;
  }

  private String canonical(String key) {
    if (key.length() > 64 || keys.size() > 10_000) {
      return key;
    }
    String known = keys.putIfAbsent(key, key);
    return known == null ? key : known;
  }

  private JsonNode alias(String name) throws FbcException {
    if (++aliases > limits.maxYamlAliases()) {
      throw error("number of aliases exceeds the limit of " + limits.maxYamlAliases());
    }
    Anchored target = anchors.get(name);
    if (target == null) {
      throw error("unknown alias \"" + name + "\"");
    }
    nodes += target.size();
    if (nodes > maxNodes) {
      throw error("document expands to more than " + maxNodes + " nodes (alias bomb?)");
    }
    // Shared, not copied: the tree is read-only for callers and the expanded size is already
    // bounded.
    return target.node();
  }

  private FbcException error(String message) {
    JsonLocation loc = parser.currentTokenLocation();
    return new FbcException(
        file,
        loc == null ? 0 : loc.getLineNr(),
        loc == null ? 0 : loc.getColumnNr(),
        "malformed catalog: " + message);
  }
}
