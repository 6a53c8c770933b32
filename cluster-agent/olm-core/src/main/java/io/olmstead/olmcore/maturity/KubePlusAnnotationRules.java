package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The KubePlus CRD annotations that let tools discover what a custom resource creates and uses
 * (KubePlus "Operator Maturity Model" / "CRD annotations" docs): {@code resource/composition}
 * (kinds the instances create), the three relationship annotations ({@code on:<kind>, key:..,
 * value:..}) and {@code resource/usage}. The format check is the shape of those examples, not
 * KubePlus's own parser.
 */
final class KubePlusAnnotationRules implements RuleFamily {

  static final String MISSING = "consumability/crd-annotations";
  static final String MALFORMED = "consumability/crd-annotation-malformed";

  static final List<String> ANNOTATIONS =
      List.of(
          Crds.COMPOSITION,
          "resource/annotation-relationship",
          "resource/label-relationship",
          "resource/specproperty-relationship",
          "resource/usage");
  private static final Pattern KINDS =
      Pattern.compile("\\s*[A-Z][A-Za-z0-9]*\\s*(,\\s*[A-Z][A-Za-z0-9]*\\s*)*");
  private static final Pattern PART = Pattern.compile("\\s*[A-Za-z]+\\s*:\\s*\\S.*");

  @Override
  public List<String> rules() {
    return List.of(MISSING, MALFORMED);
  }

  @Override
  public void check(BundleView view, Findings out) {
    for (Crds c : Crds.of(view)) {
      JsonNode ann = c.crd().path("metadata").path("annotations");
      List<String> missing = new ArrayList<>();
      for (String key : ANNOTATIONS) {
        JsonNode v = ann.path(key);
        if (v.isMissingNode()) {
          missing.add(key);
        } else if (!wellFormed(key, v)) {
          out.add(
              MALFORMED,
              Category.CONSUMABILITY,
              Severity.WARNING,
              c.object(),
              "metadata.annotations[" + key + "]",
              c.object() + ": annotation " + key + " is malformed");
        }
      }
      // only CRDs whose instances create workloads: there the relationships are what chargeback
      // follows
      if (c.createsWorkloads() && !missing.isEmpty()) {
        out.add(
            MISSING,
            Category.CONSUMABILITY,
            Severity.INFO,
            c.object(),
            "metadata.annotations",
            c.object() + ": no KubePlus annotation " + String.join(", ", missing));
      }
    }
  }

  static boolean wellFormed(String key, JsonNode value) {
    if (!value.isTextual() || value.textValue().isBlank() || value.textValue().length() > 4096) {
      return false;
    }
    String v = value.textValue();
    if (key.equals(Crds.COMPOSITION)) {
      return KINDS.matcher(v).matches();
    }
    if (key.equals("resource/usage")) {
      return !v.contains(" ");
    }
    boolean on = false;
    for (String part : v.split(",")) {
      if (!PART.matcher(part).matches()) {
        return false;
      }
      on |= part.trim().startsWith("on:");
    }
    return on;
  }
}
