package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Turns parsed blobs into the typed model, collecting them per schema (one instance per parse). */
final class BlobDecoder {

  private final List<PackageMeta> packages = new ArrayList<>();
  private final List<Channel> channels = new ArrayList<>();
  private final List<Bundle> bundles = new ArrayList<>();
  private final List<Deprecation> deprecations = new ArrayList<>();
  private final List<JsonNode> others = new ArrayList<>();
  private final ParseLimits limits;

  BlobDecoder(ParseLimits limits) {
    this.limits = limits;
  }

  void add(String file, int line, int column, JsonNode blob) throws FbcException {
    if (blob == null || !blob.isObject()) {
      throw new FbcException(file, line, column, "expected an object, found " + kindOf(blob));
    }
    JsonNode schemaNode = blob.get("schema");
    if (schemaNode == null || !schemaNode.isTextual() || schemaNode.textValue().isEmpty()) {
      throw new FbcException(file, line, column, "blob has no \"schema\" string field");
    }
    String schema = schemaNode.textValue();
    try {
      switch (schema) {
        case "olm.package" ->
            packages.add(
                new PackageMeta(
                    text(blob, "name"),
                    text(blob, "defaultChannel"),
                    text(blob, "description"),
                    icon(blob)));
        case "olm.channel" -> channels.add(channel(blob));
        case "olm.bundle" -> bundles.add(bundle(blob, limits));
        case "olm.deprecations" -> deprecations.add(deprecation(blob));
        default -> others.add(materialize(blob));
      }
    } catch (IllegalStateException e) {
      throw new FbcException(
          file,
          line,
          column,
          "invalid " + schema + " blob" + nameSuffix(blob) + ": " + e.getMessage());
    }
  }

  /** Unknown schemas are kept verbatim: decode any value the JSON reader deferred. */
  private static JsonNode materialize(JsonNode blob) {
    JsonNode props = blob.get("properties");
    if (props != null && props.isArray()) {
      for (JsonNode p : props) {
        JsonNode v = p.get("value");
        if (v != null
            && v.isPojo()
            && p instanceof ObjectNode o
            && ((POJONode) v).getPojo() instanceof JsonBlobReader.RawJson raw) {
          o.set("value", raw.decode());
        }
      }
    }
    return blob;
  }

  DeclarativeConfig build() {
    return new DeclarativeConfig(packages, channels, bundles, deprecations, others);
  }

  /** The icon as text: decoding its base64 is left to whoever displays it. */
  private static Icon icon(JsonNode blob) {
    JsonNode icon = blob.get("icon");
    if (icon == null || icon.isNull()) {
      return null;
    }
    requireObject(icon, "\"icon\"");
    return new Icon(text(icon, "base64data"), text(icon, "mediatype"));
  }

  private static Channel channel(JsonNode blob) {
    List<ChannelEntry> entries = new ArrayList<>();
    for (JsonNode e : array(blob, "entries")) {
      requireObject(e, "entries[]");
      entries.add(
          new ChannelEntry(
              text(e, "name"),
              emptyToNull(text(e, "replaces")),
              strings(e, "skips"),
              emptyToNull(text(e, "skipRange"))));
    }
    return new Channel(text(blob, "package"), text(blob, "name"), entries);
  }

  private static Bundle bundle(JsonNode blob, ParseLimits limits) {
    List<Property> props = new ArrayList<>();
    for (JsonNode p : array(blob, "properties")) {
      requireObject(p, "properties[]");
      String type = text(p, "type");
      if (type == null) {
        throw new IllegalStateException("property without \"type\"");
      }
      props.add(new Property(type, p.get("value")));
    }
    List<RelatedImage> related = new ArrayList<>();
    for (JsonNode r : array(blob, "relatedImages")) {
      requireObject(r, "relatedImages[]");
      related.add(new RelatedImage(text(r, "name"), text(r, "image")));
    }
    return new Bundle(
        text(blob, "package"), text(blob, "name"), text(blob, "image"), props, related, limits);
  }

  private static Deprecation deprecation(JsonNode blob) {
    List<Deprecation.Entry> entries = new ArrayList<>();
    for (JsonNode e : array(blob, "entries")) {
      requireObject(e, "entries[]");
      JsonNode ref = e.get("reference");
      if (ref == null || !ref.isObject()) {
        throw new IllegalStateException("deprecation entry without \"reference\" object");
      }
      entries.add(
          new Deprecation.Entry(
              text(ref, "schema"), emptyToNull(text(ref, "name")), text(e, "message")));
    }
    return new Deprecation(text(blob, "package"), entries);
  }

  private static Iterable<JsonNode> array(JsonNode blob, String field) {
    JsonNode n = blob.get(field);
    if (n == null || n.isNull()) {
      return List.of();
    }
    if (!n.isArray()) {
      throw new IllegalStateException("\"" + field + "\" must be an array, found " + kindOf(n));
    }
    return n;
  }

  private static List<String> strings(JsonNode obj, String field) {
    List<String> out = new ArrayList<>();
    for (JsonNode s : array(obj, field)) {
      if (!s.isValueNode() || s.isNull()) {
        throw new IllegalStateException("\"" + field + "\" must hold strings, found " + kindOf(s));
      }
      out.add(s.asText());
    }
    return out;
  }

  private static void requireObject(JsonNode n, String what) {
    if (!n.isObject()) {
      throw new IllegalStateException(what + " must be an object, found " + kindOf(n));
    }
  }

  /** A string field; scalars of other types are taken as text (YAML may type "1.0" as a number). */
  private static String text(JsonNode obj, String field) {
    JsonNode n = obj.get(field);
    if (n == null || n.isNull()) {
      return null;
    }
    if (n.isContainerNode()) {
      throw new IllegalStateException("\"" + field + "\" must be a string, found " + kindOf(n));
    }
    return n.asText();
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private static String nameSuffix(JsonNode blob) {
    JsonNode n = blob.get("name");
    return n != null && n.isTextual() ? " \"" + n.textValue() + "\"" : "";
  }

  static String kindOf(JsonNode n) {
    if (n == null || n.isNull() || n.isMissingNode()) {
      return "null";
    }
    return n.getNodeType().name().toLowerCase(Locale.ROOT);
  }
}
