package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Base64;

/** One {@code olm.bundle.object} manifest, kept base64-encoded until first use. */
public final class BundleObject {

  private final String bundle;
  private final String data;
  private final ParseLimits limits;
  private volatile JsonNode manifest;

  public BundleObject(String bundle, String data) {
    this(bundle, data, ParseLimits.defaults());
  }

  /** Decodes within the limits the catalog was parsed with (nesting depth, YAML aliases, sizes). */
  BundleObject(String bundle, String data, ParseLimits limits) {
    this.bundle = bundle;
    this.data = data;
    this.limits = limits == null ? ParseLimits.defaults() : limits;
  }

  /**
   * A manifest file of a bundle image ({@code manifests/*.yaml|json}), decoded with the catalog's
   * limits and safe YAML, kept like opm's {@code olm.bundle.object}: base64 of the manifest as
   * JSON.
   */
  public static BundleObject fromManifest(
      String bundle, String file, byte[] raw, ParseLimits limits) throws FbcException {
    JsonNode node = decodeDocument(file, raw, limits);
    if (Bundle.textOf(node, "kind") == null) {
      throw new FbcException(file, 0, 0, "manifest is not a Kubernetes object (no kind)");
    }
    byte[] json;
    try {
      json = Mappers.JSON.writeValueAsBytes(node);
    } catch (IOException e) {
      throw new FbcException(
          file, 0, 0, "manifest cannot be written as JSON: " + e.getMessage(), e);
    }
    BundleObject o = new BundleObject(bundle, Base64.getEncoder().encodeToString(json), limits);
    o.manifest = node;
    return o;
  }

  /**
   * One JSON or YAML document holding an object, read with the catalog parser's limits and safe
   * YAML.
   */
  public static JsonNode decodeDocument(String file, byte[] raw, ParseLimits limits)
      throws FbcException {
    JsonNode node;
    try {
      node =
          Mappers.looksLikeJson(raw, 0)
              ? Mappers.json(limits).readTree(raw)
              : Mappers.yaml(limits).readTree(raw);
    } catch (IOException | RuntimeException e) {
      throw Mappers.toFbc(file, e);
    }
    if (node == null || !node.isObject()) {
      throw new FbcException(file, 0, 0, "not an object");
    }
    return node;
  }

  /** The base64 data, as in the catalog property (stored and served as is). */
  public String data() {
    return data;
  }

  /** The decoded manifest (JSON or YAML inside the base64), cached after the first call. */
  public JsonNode manifest() throws FbcException {
    JsonNode local = manifest;
    if (local == null) {
      local = decode();
      manifest = local;
    }
    return local;
  }

  /** The manifest's kind, or null when it cannot be decoded. */
  public String kind() {
    return field("kind");
  }

  /** The manifest's metadata.name, or null when it cannot be decoded. */
  public String name() {
    try {
      JsonNode meta = manifest().get("metadata");
      return meta == null ? null : Bundle.textOf(meta, "name");
    } catch (FbcException e) {
      return null;
    }
  }

  private String field(String f) {
    try {
      return Bundle.textOf(manifest(), f);
    } catch (FbcException e) {
      return null;
    }
  }

  private JsonNode decode() throws FbcException {
    String where = "bundle " + bundle + " olm.bundle.object";
    if (data == null) {
      throw new FbcException(where, 0, 0, "olm.bundle.object has no data");
    }
    byte[] raw;
    try {
      raw = Base64.getMimeDecoder().decode(data);
    } catch (IllegalArgumentException e) {
      throw new FbcException(
          where, 0, 0, "invalid base64 in olm.bundle.object: " + e.getMessage(), e);
    }
    try {
      JsonNode node =
          Mappers.looksLikeJson(raw, 0)
              ? Mappers.json(limits).readTree(raw)
              : Mappers.yaml(limits).readTree(raw);
      if (node == null || !node.isObject()) {
        throw new FbcException(where, 0, 0, "olm.bundle.object is not an object");
      }
      return node;
    } catch (IOException | RuntimeException e) {
      // as in FbcParser: SnakeYAML/Jackson may signal a broken or oversized document unchecked
      throw Mappers.toFbc(where, e);
    }
  }
}
