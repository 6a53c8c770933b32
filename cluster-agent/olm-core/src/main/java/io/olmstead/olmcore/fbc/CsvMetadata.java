package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The commonly used fields of an {@code olm.csv.metadata} property; {@link #raw()} keeps the whole
 * value for the rest ({@code crdDescriptions}, {@code apiServiceDefinitions}, {@code nativeAPIs},
 * ...). Absent strings are null, absent lists and maps empty. A field of the wrong type reads as
 * absent here; validation reports it.
 */
public record CsvMetadata(
    String displayName,
    String description,
    List<String> keywords,
    List<Maintainer> maintainers,
    AppLink provider,
    List<AppLink> links,
    Map<String, String> annotations,
    Map<String, String> labels,
    String maturity,
    List<InstallMode> installModes,
    String minKubeVersion,
    JsonNode raw) {

  /** The annotation holding the operator's capability level ("Basic Install" ... "Auto Pilot"). */
  public static final String CAPABILITIES = "capabilities";

  /**
   * The prefix of the infrastructure-feature annotations ({@code disconnected}, {@code
   * fips-compliant}, ...).
   */
  public static final String FEATURES_PREFIX = "features.operators.openshift.io/";

  public record Maintainer(String name, String email) {}

  /** A named URL: a provider or a link. */
  public record AppLink(String name, String url) {}

  /**
   * One install mode: {@code OwnNamespace}, {@code SingleNamespace}, {@code MultiNamespace} or
   * {@code AllNamespaces}.
   */
  public record InstallMode(String type, boolean supported) {}

  /** Reads a decoded value leniently (see the type's Javadoc). */
  public static CsvMetadata of(JsonNode raw) {
    JsonNode v = raw == null ? MissingNode.getInstance() : raw;
    List<String> keywords = new ArrayList<>();
    for (JsonNode k : array(v, "keywords")) {
      if (k.isTextual()) {
        keywords.add(k.textValue());
      }
    }
    List<Maintainer> maintainers = new ArrayList<>();
    for (JsonNode m : array(v, "maintainers")) {
      maintainers.add(new Maintainer(text(m, "name"), text(m, "email")));
    }
    List<AppLink> links = new ArrayList<>();
    for (JsonNode l : array(v, "links")) {
      links.add(link(l));
    }
    List<InstallMode> modes = new ArrayList<>();
    for (JsonNode m : array(v, "installModes")) {
      modes.add(new InstallMode(text(m, "type"), m.path("supported").asBoolean(false)));
    }
    JsonNode provider = v.get("provider");
    return new CsvMetadata(
        text(v, "displayName"),
        text(v, "description"),
        List.copyOf(keywords),
        List.copyOf(maintainers),
        provider != null && provider.isObject() ? link(provider) : null,
        List.copyOf(links),
        strings(v, "annotations"),
        strings(v, "labels"),
        text(v, "maturity"),
        List.copyOf(modes),
        text(v, "minKubeVersion"),
        raw);
  }

  /** One annotation, or null. */
  public String annotation(String key) {
    return annotations.get(key);
  }

  /** The capability level annotation, or null. */
  public String capabilities() {
    return annotation(CAPABILITIES);
  }

  /** The comma-separated {@code categories} annotation as a list. */
  public List<String> categories() {
    String c = annotation("categories");
    List<String> out = new ArrayList<>();
    if (c != null) {
      for (String s : c.split(",")) {
        if (!s.isBlank()) {
          out.add(s.strip());
        }
      }
    }
    return out;
  }

  /**
   * The infrastructure-feature annotations by feature name (e.g. {@code disconnected -> "true"}).
   */
  public Map<String, String> features() {
    Map<String, String> out = new LinkedHashMap<>();
    annotations.forEach(
        (k, val) -> {
          if (k.startsWith(FEATURES_PREFIX)) {
            out.put(k.substring(FEATURES_PREFIX.length()), val);
          }
        });
    return out;
  }

  /** True when the CSV declares the install mode as supported. */
  public boolean supports(String installModeType) {
    return installModes.stream()
        .anyMatch(m -> m.supported() && m.type() != null && m.type().equals(installModeType));
  }

  private static AppLink link(JsonNode l) {
    return new AppLink(text(l, "name"), text(l, "url"));
  }

  private static Iterable<JsonNode> array(JsonNode v, String field) {
    JsonNode a = v.get(field);
    return a != null && a.isArray() ? a : List.of();
  }

  private static Map<String, String> strings(JsonNode v, String field) {
    JsonNode m = v.get(field);
    if (m == null || !m.isObject()) {
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : m.properties()) {
      if (e.getValue().isTextual()) {
        out.put(e.getKey(), e.getValue().textValue());
      }
    }
    return Collections.unmodifiableMap(out);
  }

  private static String text(JsonNode v, String field) {
    JsonNode f = v.get(field);
    return f != null && f.isTextual() ? f.textValue() : null;
  }
}
