package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Decodes a frame and checks it against the JSON Schema of its type (the files under {@code
 * agent-protocol/schemas}, compiled once), so the bounds the schemas declare (lengths, item counts,
 * enums, minimums) hold for every message the control plane accepts. No string anywhere may carry a
 * NUL character (PostgreSQL refuses it in text and jsonb). Every failure is a {@link
 * ProtocolException} ({@code malformed-message}, or {@code unknown-message-type}) whose detail
 * names the first offending field.
 */
public final class SchemaDecoder {
  private static final Map<String, JsonSchema> SCHEMAS = load();

  private SchemaDecoder() {}

  /**
   * The number of message schemas; calling it loads them (seconds on a busy machine), which a
   * caller does off the event loop before the first message is checked on it.
   */
  public static int schemas() {
    return SCHEMAS.size();
  }

  /** Decodes and validates one message; never throws anything but {@link ProtocolException}. */
  public static AgentMessage decode(String text) throws ProtocolException {
    JsonNode tree = ProtocolCodec.parse(text);
    String type = ProtocolCodec.typeOf(tree);
    // inventory reports are the largest frequent messages: the quick check spares them the general
    // validator
    if (!("inventory".equals(type) && InventoryQuickCheck.passes(tree))) {
      String refusal = refusal(type, tree);
      if (refusal != null) {
        throw new ProtocolException(
            CloseReason.MALFORMED_MESSAGE, printable(type + ": " + refusal));
      }
    }
    return ProtocolCodec.bind(tree, type);
  }

  /**
   * Why a decoded message of {@code type} is refused (a NUL, then the first schema violation), or
   * null.
   */
  static String refusal(String type, JsonNode tree) {
    String nul = nulAt(tree, "$");
    return nul != null ? nul + ": NUL character" : violation(type, tree);
  }

  /**
   * The first schema violation of a message as it would be sent, or null when it is valid (for
   * senders).
   */
  public static String violation(AgentMessage message) {
    JsonNode tree = ProtocolCodec.mapper().valueToTree(message);
    String nul = nulAt(tree, "$");
    return nul != null ? nul + ": NUL character" : violation(message.type(), tree);
  }

  private static String violation(String type, JsonNode tree) {
    Set<ValidationMessage> errors = SCHEMAS.get(type).validate(tree);
    // The first by location, so the same message always gets the same answer; messages never echo
    // values.
    return errors.stream()
        .min(
            Comparator.comparing((ValidationMessage m) -> m.getInstanceLocation().toString())
                .thenComparing(ValidationMessage::getMessage))
        .map(ValidationMessage::getMessage)
        .orElse(null);
  }

  /**
   * The path of the first field name or string value holding a NUL, or null (built only when one is
   * found).
   */
  private static String nulAt(JsonNode node, String path) {
    String found = nulIn(node);
    return found == null ? null : path + found;
  }

  private static String nulIn(JsonNode node) {
    if (node.isTextual()) {
      return node.textValue().indexOf('\u0000') >= 0 ? "" : null;
    }
    if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        String found = nulIn(node.get(i));
        if (found != null) {
          return "[" + i + "]" + found;
        }
      }
    } else if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        if (field.getKey().indexOf('\u0000') >= 0) {
          return "";
        }
        String found = nulIn(field.getValue());
        if (found != null) {
          return "." + field.getKey() + found;
        }
      }
    }
    return null;
  }

  // Field names come from the peer: no line breaks or other control characters into logs and close
  // frames.
  private static String printable(String detail) {
    String flat = detail.replaceAll("\\p{Cntrl}", "?");
    return flat.length() > 200 ? flat.substring(0, 200) : flat;
  }

  private static Map<String, JsonSchema> load() {
    JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    Map<String, JsonSchema> out = new HashMap<>();
    for (String type : ProtocolCodec.TYPES) {
      // statusAck -> status-ack.json
      String file =
          "/agent-protocol/schemas/"
              + type.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT)
              + ".json";
      try (InputStream in = SchemaDecoder.class.getResourceAsStream(file)) {
        if (in == null) {
          throw new IllegalStateException("no schema " + file);
        }
        JsonSchema schema = factory.getSchema(in);
        schema.initializeValidators();
        out.put(type, schema);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return Map.copyOf(out);
  }
}
