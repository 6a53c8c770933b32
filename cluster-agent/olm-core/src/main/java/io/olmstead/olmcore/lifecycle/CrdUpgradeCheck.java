package io.olmstead.olmcore.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * OLM's CRD upgrade safety rules as pure functions over CRD manifests ({@code
 * apiextensions.k8s.io/v1}, or v1beta1 with a top-level {@code version}/{@code validation}):
 *
 * <ol>
 *   <li>every version in the existing CRD's {@code status.storedVersions} must still be in the new
 *       CRD;
 *   <li>every existing custom resource of a version the new CRD still serves must validate against
 *       the new CRD's schema for that version.
 * </ol>
 */
public final class CrdUpgradeCheck {

  private static final JsonSchemaFactory FACTORY =
      JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4);
  private static final SchemaValidatorsConfig CONFIG =
      SchemaValidatorsConfig.builder()
          .locale(Locale.ENGLISH)
          .formatAssertionsEnabled(false)
          .build();

  private CrdUpgradeCheck() {}

  /** Both rules; {@code existingCrd} may be null (first install: always safe). */
  public static CrdUpgradeResult check(
      JsonNode existingCrd, JsonNode newCrd, List<JsonNode> existingResources) {
    List<String> errors = new ArrayList<>(storedVersionRemovals(existingCrd, newCrd));
    String invalid = invalidExistingResources(existingCrd, newCrd, existingResources);
    if (invalid != null) {
      errors.add(invalid);
    }
    return new CrdUpgradeResult(errors);
  }

  /** One {@code risk of data loss} message per stored version the new CRD no longer defines. */
  public static List<String> storedVersionRemovals(JsonNode existingCrd, JsonNode newCrd) {
    List<String> errors = new ArrayList<>();
    if (existingCrd == null || newCrd == null) {
      return errors;
    }
    Set<String> newVersions = versionNames(newCrd);
    for (JsonNode stored : existingCrd.path("status").path("storedVersions")) {
      if (!newVersions.contains(stored.asText())) {
        errors.add(
            "risk of data loss updating \""
                + name(newCrd)
                + "\": new CRD removes version "
                + stored.asText()
                + " that is listed as a stored version on the existing CRD");
      }
    }
    return errors;
  }

  /**
   * The {@code error validating existing CRs} message listing every resource that the new schema
   * rejects, or null when all pass. Resources of another group or kind, of a version the existing
   * CRD does not serve, or of a version for which the new CRD has no served schema are not checked.
   */
  public static String invalidExistingResources(
      JsonNode existingCrd, JsonNode newCrd, List<JsonNode> resources) {
    if (newCrd == null || resources == null || resources.isEmpty()) {
      return null;
    }
    String group = newCrd.path("spec").path("group").asText();
    String kind = newCrd.path("spec").path("names").path("kind").asText();
    Set<String> servedBefore = existingCrd == null ? null : servedVersions(existingCrd);
    Map<String, JsonSchema> schemas = new HashMap<>();
    List<String> failures = new ArrayList<>();
    for (JsonNode cr : resources) {
      if (cr == null || !cr.isObject()) {
        continue;
      }
      String apiVersion = cr.path("apiVersion").asText();
      int slash = apiVersion.lastIndexOf('/');
      String crGroup = slash < 0 ? "" : apiVersion.substring(0, slash);
      String version = apiVersion.substring(slash + 1);
      if (!crGroup.equals(group)
          || (!kind.isEmpty() && !kind.equals(cr.path("kind").asText(kind)))
          || (servedBefore != null && !servedBefore.contains(version))) {
        continue;
      }
      Set<String> messages = new LinkedHashSet<>();
      try {
        JsonSchema schema = schemas.computeIfAbsent(version, v -> compile(newCrd, v));
        if (schema == null) {
          continue;
        }
        for (ValidationMessage m : schema.validate(cr)) {
          messages.add(m.getMessage());
        }
      } catch (RuntimeException e) {
        // e.g. a pattern the JDK cannot compile: refuse rather than let an unchecked schema through
        failures.add(
            "cannot evaluate the new schema for version "
                + version
                + " on "
                + apiVersion
                + ", Kind="
                + cr.path("kind").asText()
                + " \""
                + namespacedName(cr)
                + "\": "
                + String.valueOf(e.getMessage()).replace('\n', ' '));
        continue;
      }
      if (!messages.isEmpty()) {
        List<String> sorted = new ArrayList<>(messages);
        sorted.sort(null);
        String detail = sorted.size() == 1 ? sorted.get(0) : "[" + String.join(", ", sorted) + "]";
        failures.add(
            "error validating "
                + apiVersion
                + ", Kind="
                + cr.path("kind").asText()
                + " \""
                + namespacedName(cr)
                + "\": updated validation is too restrictive: "
                + detail);
      }
    }
    if (failures.isEmpty()) {
      return null;
    }
    return "error validating existing CRs against new CRD's schema for \""
        + name(newCrd)
        + "\": "
        + String.join("; ", failures);
  }

  private static JsonSchema compile(JsonNode crd, String version) {
    JsonNode openApi = schemaFor(crd, version);
    return openApi == null
        ? null
        : FACTORY.getSchema(StructuralSchemas.toJsonSchema(openApi), CONFIG);
  }

  /** The served version's schema, falling back to v1beta1's top-level {@code validation}. */
  public static JsonNode schemaFor(JsonNode crd, String version) {
    JsonNode spec = crd.path("spec");
    for (JsonNode v : spec.path("versions")) {
      if (version.equals(v.path("name").asText())) {
        if (!v.path("served").asBoolean(true)) {
          return null;
        }
        JsonNode s = v.path("schema").path("openAPIV3Schema");
        if (s.isObject()) {
          return s;
        }
        JsonNode global = spec.path("validation").path("openAPIV3Schema");
        return global.isObject() ? global : null;
      }
    }
    if (version.equals(spec.path("version").asText(null))) {
      JsonNode global = spec.path("validation").path("openAPIV3Schema");
      return global.isObject() ? global : null;
    }
    return null;
  }

  /**
   * The CRD's version names in order ({@code spec.versions}, then v1beta1's {@code spec.version}).
   */
  public static Set<String> versionNames(JsonNode crd) {
    Set<String> names = new LinkedHashSet<>();
    JsonNode spec = crd.path("spec");
    for (JsonNode v : spec.path("versions")) {
      names.add(v.path("name").asText());
    }
    if (spec.path("version").isTextual()) {
      names.add(spec.path("version").asText());
    }
    return names;
  }

  private static Set<String> servedVersions(JsonNode crd) {
    Set<String> names = new LinkedHashSet<>();
    JsonNode spec = crd.path("spec");
    for (JsonNode v : spec.path("versions")) {
      if (v.path("served").asBoolean(true)) {
        names.add(v.path("name").asText());
      }
    }
    if (spec.path("version").isTextual()) {
      names.add(spec.path("version").asText());
    }
    return names;
  }

  private static String name(JsonNode crd) {
    return crd.path("metadata").path("name").asText();
  }

  private static String namespacedName(JsonNode cr) {
    String ns = cr.path("metadata").path("namespace").asText("");
    String n = cr.path("metadata").path("name").asText("");
    return ns.isEmpty() ? n : ns + "/" + n;
  }
}
