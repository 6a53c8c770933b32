package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.olmcore.fbc.RelatedImage;
import java.util.List;
import java.util.Set;

/**
 * CSV metadata and related images: what a catalog user sees before installing. Sources:
 * operator-framework/api OperatorHubValidator (capabilities and categories from fixed lists,
 * description, displayName, maintainers, provider, links, icon) and CSV validation (at least one
 * supported install mode); OLM "disconnected" guidance
 * (features.operators.openshift.io/disconnected: every image in relatedImages, pinned by digest).
 */
final class MetadataRules implements RuleFamily {

  static final String CAPABILITIES = "consumability/capabilities";
  static final String CATEGORIES = "consumability/categories";
  static final String OPERATORHUB = "consumability/operatorhub-metadata";
  static final String INSTALL_MODES = "consumability/install-modes";
  static final String DIGEST = "lifecycle/related-images-digest";

  static final List<String> LEVELS =
      List.of(
          "Basic Install", "Seamless Upgrades", "Full Lifecycle", "Deep Insights", "Auto Pilot");
  static final Set<String> CATEGORY_LIST =
      Set.of(
          "AI/Machine Learning",
          "Application Runtime",
          "Big Data",
          "Cloud Provider",
          "Database",
          "Developer Tools",
          "Drivers and plugins",
          "Integration & Delivery",
          "Logging & Tracing",
          "Modernization & Migration",
          "Monitoring",
          "Networking",
          "OpenShift Optional",
          "Security",
          "Storage",
          "Streaming & Messaging");

  @Override
  public List<String> rules() {
    return List.of(CAPABILITIES, CATEGORIES, OPERATORHUB, INSTALL_MODES, DIGEST);
  }

  @Override
  public boolean needsObjects() {
    return false;
  }

  @Override
  public void check(BundleView view, Findings out) {
    String csv =
        view.csv() != null ? Json.describe(view.csv()) : "ClusterServiceVersion " + view.bundle();
    JsonNode meta = view.csvMetadata();
    if (meta == null) {
      out.add(
          OPERATORHUB,
          Category.CONSUMABILITY,
          Severity.ERROR,
          csv,
          "",
          "bundle " + view.bundle() + " has neither a CSV nor olm.csv.metadata");
    } else {
      checkMetadata(meta, csv, out);
    }
    for (RelatedImage image : view.relatedImages()) {
      if (image.image() != null && !image.image().contains("@sha256:")) {
        out.add(
            DIGEST,
            Category.LIFECYCLE,
            Severity.WARNING,
            "bundle " + view.bundle(),
            "relatedImages[" + (image.name() == null ? image.image() : image.name()) + "]",
            "related image " + image.image() + " is pinned by tag, not by digest");
      }
    }
  }

  private static void checkMetadata(JsonNode meta, String csv, Findings out) {
    JsonNode ann = meta.path("annotations");
    String level = Json.text(ann, "capabilities");
    if (level == null) {
      out.add(
          CAPABILITIES,
          Category.CONSUMABILITY,
          Severity.WARNING,
          csv,
          "metadata.annotations.capabilities",
          csv + ": no capabilities annotation");
    } else if (!LEVELS.contains(level)) {
      out.add(
          CAPABILITIES,
          Category.CONSUMABILITY,
          Severity.ERROR,
          csv,
          "metadata.annotations.capabilities",
          csv + ": capabilities '" + level + "' is not one of " + LEVELS);
    }
    String categories = Json.text(ann, "categories");
    if (categories == null) {
      out.add(
          CATEGORIES,
          Category.CONSUMABILITY,
          Severity.INFO,
          csv,
          "metadata.annotations.categories",
          csv + ": no categories annotation");
    } else {
      for (String c : categories.split(",")) {
        if (!CATEGORY_LIST.contains(c.trim())) {
          out.add(
              CATEGORIES,
              Category.CONSUMABILITY,
              Severity.WARNING,
              csv,
              "metadata.annotations.categories",
              csv + ": category '" + c.trim() + "' is not an OperatorHub category");
        }
      }
    }
    for (String field :
        List.of("description", "displayName", "provider", "maintainers", "links", "icon")) {
      JsonNode v = meta.path(field);
      if (v.isMissingNode()
          || v.isNull()
          || v.isEmpty() && !v.isValueNode()
          || v.isTextual() && v.textValue().isBlank()) {
        out.add(
            OPERATORHUB,
            Category.CONSUMABILITY,
            Severity.WARNING,
            csv,
            "spec." + field,
            csv + ": spec." + field + " is missing or empty");
      }
    }
    if (Json.array(meta, "installModes").stream()
        .noneMatch(m -> m.path("supported").asBoolean(false))) {
      out.add(
          INSTALL_MODES,
          Category.CONSUMABILITY,
          Severity.ERROR,
          csv,
          "spec.installModes",
          csv + ": no supported install mode");
    }
  }
}
