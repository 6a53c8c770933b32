package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Encodes and decodes protocol messages with one shared Jackson mapper. Unknown fields are ignored
 * (newer peers may add some); an unknown {@code type}, bad JSON or a missing required field is a
 * {@link ProtocolException}.
 */
public final class ProtocolCodec {
  private static final Map<Class<?>, String> NAMES =
      Arrays.stream(AgentMessage.class.getAnnotation(JsonSubTypes.class).value())
          .collect(Collectors.toUnmodifiableMap(JsonSubTypes.Type::value, JsonSubTypes.Type::name));
  public static final Set<String> TYPES = Set.copyOf(NAMES.values());

  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .build();

  static {
    // Deeply nested JSON from a misbehaving agent must fail fast, not exhaust the stack.
    MAPPER
        .getFactory()
        .setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build());
  }

  private ProtocolCodec() {}

  public static ObjectMapper mapper() {
    return MAPPER;
  }

  public static String encode(AgentMessage message) {
    try {
      return MAPPER.writeValueAsString(message);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("message cannot be encoded: " + e.getOriginalMessage(), e);
    }
  }

  public static AgentMessage decode(String text) throws ProtocolException {
    JsonNode tree = parse(text);
    return bind(tree, typeOf(tree));
  }

  /** Parses a frame into a JSON object (bounded nesting), or a {@code malformed-message} error. */
  static JsonNode parse(String text) throws ProtocolException {
    JsonNode tree;
    try {
      tree = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new ProtocolException(CloseReason.MALFORMED_MESSAGE, "not JSON");
    }
    if (tree == null || !tree.isObject()) {
      throw new ProtocolException(CloseReason.MALFORMED_MESSAGE, "not a JSON object");
    }
    return tree;
  }

  /**
   * The message type of a parsed envelope: present, known, with a protocol version; else the
   * matching error.
   */
  static String typeOf(JsonNode tree) throws ProtocolException {
    JsonNode type = tree.get("type");
    if (type == null || !type.isTextual()) {
      throw new ProtocolException(CloseReason.MALFORMED_MESSAGE, "no type");
    }
    if (!TYPES.contains(type.asText())) {
      throw new ProtocolException(
          CloseReason.UNKNOWN_TYPE, "type \"" + abbreviate(type.asText()) + "\"");
    }
    JsonNode protocol = tree.get("protocol");
    if (protocol == null || !protocol.canConvertToInt()) {
      throw new ProtocolException(CloseReason.MALFORMED_MESSAGE, "no protocol version");
    }
    return type.asText();
  }

  /** Binds a checked envelope to its record. */
  static AgentMessage bind(JsonNode tree, String type) throws ProtocolException {
    try {
      return MAPPER.treeToValue(tree, AgentMessage.class);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new ProtocolException(CloseReason.MALFORMED_MESSAGE, "invalid " + type);
    }
  }

  static String typeOf(AgentMessage message) {
    return NAMES.get(message.getClass());
  }

  // The type comes from the peer: no NUL, line breaks or other control characters into logs and
  // close frames.
  private static String abbreviate(String text) {
    return (text.length() > 40 ? text.substring(0, 40) : text).replaceAll("\\p{Cntrl}", "?");
  }
}
