package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.POJONode;
import io.olmstead.olmcore.semver.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** An {@code olm.bundle} blob with typed views of its well-known properties. */
public final class Bundle {

  private final String packageName;
  private final String name;
  private final String image;

  /** As given: a csv.metadata value may still be raw JSON bytes (see JsonBlobReader). */
  private final List<Property> rawProperties;

  private volatile List<Property> properties;
  private final List<RelatedImage> relatedImages;
  private final String versionText;
  private final Version version;
  private final int packagePropertyCount;
  private final String packagePropertyName;
  private final String release;
  private List<BundleObject> objects;
  private volatile Optional<CsvMetadata> csvMetadata;

  /** The parser's limits, applied again when an embedded manifest is decoded. */
  private final ParseLimits limits;

  public Bundle(
      String packageName,
      String name,
      String image,
      List<Property> properties,
      List<RelatedImage> relatedImages) {
    this(packageName, name, image, properties, relatedImages, ParseLimits.defaults());
  }

  Bundle(
      String packageName,
      String name,
      String image,
      List<Property> properties,
      List<RelatedImage> relatedImages,
      ParseLimits limits) {
    this.limits = limits == null ? ParseLimits.defaults() : limits;
    this.packageName = packageName;
    this.name = name;
    this.image = image;
    this.rawProperties = properties == null ? List.of() : List.copyOf(properties);
    this.relatedImages = relatedImages == null ? List.of() : List.copyOf(relatedImages);
    String text = null;
    String propName = null;
    String rel = null;
    int count = 0;
    boolean raw = false;
    for (Property p : this.rawProperties) {
      raw |= p.value() != null && p.value().isPojo();
      if ("olm.package".equals(p.type())) {
        if (count++ == 0) {
          text = textOf(p.value(), "version");
          propName = textOf(p.value(), "packageName");
          JsonNode r = p.value() == null ? null : p.value().get("release");
          rel = r != null && r.isTextual() ? r.textValue() : null; // other types: a shape error
        }
      }
    }
    this.packagePropertyCount = count;
    this.properties = raw ? null : this.rawProperties;
    this.packagePropertyName = propName;
    this.release = rel == null || rel.isEmpty() ? null : rel;
    this.versionText = text;
    this.version = text == null ? null : Version.tryParse(text).orElse(null);
  }

  public String packageName() {
    return packageName;
  }

  public String name() {
    return name;
  }

  public String image() {
    return image;
  }

  /** All properties in declaration order; unknown types are kept. */
  public List<Property> properties() {
    List<Property> local = properties;
    if (local == null) {
      List<Property> out = new ArrayList<>(rawProperties.size());
      for (Property p : rawProperties) {
        JsonNode v = decoded(p.value());
        out.add(v == p.value() ? p : new Property(p.type(), v));
      }
      local = List.copyOf(out);
      properties = local;
    }
    return local;
  }

  /** A value with a deferred JSON value (see JsonBlobReader) decoded; other values as they are. */
  static JsonNode decoded(JsonNode value) {
    return value != null
            && value.isPojo()
            && ((POJONode) value).getPojo() instanceof JsonBlobReader.RawJson r
        ? r.decode()
        : value;
  }

  /** The properties as parsed, without decoding deferred values (for cheap scans). */
  List<Property> rawProperties() {
    return rawProperties;
  }

  public List<RelatedImage> relatedImages() {
    return relatedImages;
  }

  /**
   * The version of the first {@code olm.package} property, empty when absent or not strict semver.
   */
  public Optional<Version> version() {
    return Optional.ofNullable(version);
  }

  /** The raw version text of the first {@code olm.package} property, null when absent. */
  public String versionText() {
    return versionText;
  }

  /** The {@code release} of the first {@code olm.package} property, empty when absent or "". */
  public Optional<String> release() {
    return Optional.ofNullable(release);
  }

  /**
   * The first {@code olm.package} property (validation requires exactly one), empty when absent.
   */
  public Optional<PackageProperty> packageProperty() {
    return packagePropertyCount == 0
        ? Optional.empty()
        : Optional.of(new PackageProperty(packagePropertyName, versionText, release));
  }

  public List<Gvk> providedGvks() {
    return gvks("olm.gvk");
  }

  public List<Gvk> requiredGvks() {
    return gvks("olm.gvk.required");
  }

  public List<PackageRequirement> requiredPackages() {
    List<PackageRequirement> out = new ArrayList<>(2);
    for (Property p : rawProperties) {
      if ("olm.package.required".equals(p.type())) {
        out.add(
            new PackageRequirement(
                textOf(p.value(), "packageName"), textOf(p.value(), "versionRange")));
      }
    }
    return out;
  }

  /** The embedded manifests ({@code olm.bundle.object}); each is decoded only when asked for. */
  public List<BundleObject> objects() {
    List<BundleObject> local = objects;
    if (local == null) {
      List<BundleObject> out = new ArrayList<>();
      for (Property p : rawProperties) {
        if ("olm.bundle.object".equals(p.type())) {
          out.add(new BundleObject(name, textOf(p.value(), "data"), limits));
        }
      }
      local = List.copyOf(out);
      objects = local;
    }
    return local;
  }

  /**
   * The first {@code olm.csv.metadata} property, decoded on the first call (JSON catalogs defer
   * it).
   */
  public Optional<CsvMetadata> csvMetadata() {
    Optional<CsvMetadata> local = csvMetadata;
    if (local == null) {
      local = Optional.empty();
      for (Property p : rawProperties) {
        if (JsonBlobReader.CSV_METADATA.equals(p.type()) && p.value() != null) {
          local = Optional.of(CsvMetadata.of(decoded(p.value())));
          break;
        }
      }
      csvMetadata = local;
    }
    return local;
  }

  /**
   * The {@code olm.constraint} properties that decode (validation reports the others), in
   * declaration order.
   */
  public List<Constraint> constraints() {
    List<Constraint> out = new ArrayList<>(1);
    for (Property p : rawProperties) {
      if ("olm.constraint".equals(p.type())) {
        Constraint c = ConstraintParser.parse(p.value()).value();
        if (c != null) {
          out.add(c);
        }
      }
    }
    return out;
  }

  /**
   * The first {@code olm.maxOpenShiftVersion}; empty when absent or invalid (validation reports
   * that).
   */
  public Optional<MaxOpenShiftVersion> maxOpenShiftVersion() {
    for (Property p : rawProperties) {
      if (MaxOpenShiftVersion.TYPE.equals(p.type())) {
        return Optional.ofNullable(MaxOpenShiftVersion.parse(p.value()).value());
      }
    }
    return Optional.empty();
  }

  /** How many olm.package properties the bundle carries (upstream requires exactly one). */
  public int packagePropertyCount() {
    return packagePropertyCount;
  }

  /** The packageName of the first olm.package property (should equal {@link #packageName()}). */
  public String packagePropertyName() {
    return packagePropertyName;
  }

  /** All property values of one type, in declaration order. */
  public List<JsonNode> propertyValues(String type) {
    List<JsonNode> out = new ArrayList<>(2);
    for (Property p : type.equals(JsonBlobReader.CSV_METADATA) ? properties() : rawProperties) {
      if (type.equals(p.type())) {
        out.add(p.value());
      }
    }
    return out;
  }

  private List<Gvk> gvks(String type) {
    List<Gvk> out = new ArrayList<>(4);
    for (Property p : rawProperties) {
      if (type.equals(p.type())) {
        JsonNode v = p.value();
        out.add(new Gvk(textOf(v, "group"), textOf(v, "version"), textOf(v, "kind")));
      }
    }
    return out;
  }

  static String textOf(JsonNode node, String field) {
    if (node == null) {
      return null;
    }
    JsonNode v = node.get(field);
    return v == null || v.isNull() || v.isContainerNode() ? null : v.asText();
  }

  @Override
  public String toString() {
    return "Bundle[" + packageName + "/" + name + "]";
  }
}
