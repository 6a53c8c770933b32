package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.olmstead.olmcore.fbc.RelatedImage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The operator pods' images and architectures. Sources: OLM disconnected guidance (every image the
 * operator runs listed in relatedImages, so mirroring finds it); operator-framework/api multi-arch
 * validator (the {@code operatorframework.io/arch.<arch>: supported} labels must agree with the
 * deployments' node affinity).
 */
final class ImageRules implements RuleFamily {

  static final String COMPLETE = "lifecycle/related-images-complete";
  static final String MULTI_ARCH = "portability/multi-arch";
  static final String ARCH_LABEL = "operatorframework.io/arch.";

  @Override
  public List<String> rules() {
    return List.of(COMPLETE, MULTI_ARCH);
  }

  @Override
  public void check(BundleView view, Findings out) {
    Set<String> related = new HashSet<>();
    for (RelatedImage r : view.relatedImages()) {
      related.add(r.image());
    }
    for (JsonNode r :
        view.csv() == null
            ? List.<JsonNode>of()
            : Json.array(view.csv().path("spec"), "relatedImages")) {
      related.add(Json.text(r, "image"));
    }
    Set<String> declaredArchs = new HashSet<>();
    JsonNode meta = view.csvMetadata() == null ? MissingNode.getInstance() : view.csvMetadata();
    meta.path("labels")
        .fields()
        .forEachRemaining(
            e -> {
              if (e.getKey().startsWith(ARCH_LABEL) && "supported".equals(e.getValue().asText())) {
                declaredArchs.add(e.getKey().substring(ARCH_LABEL.length()));
              }
            });
    for (OperatorPods pod : OperatorPods.of(view)) {
      for (JsonNode c : pod.containers(true)) {
        String image = Json.text(c, "image");
        if (image != null && !related.isEmpty() && !related.contains(image)) {
          out.add(
              COMPLETE,
              Category.LIFECYCLE,
              Severity.WARNING,
              pod.object(),
              OperatorPods.containerPath(c, "image"),
              pod.object() + " runs " + image + ", which relatedImages does not list");
        }
      }
      List<String> allowed = archAffinity(pod.podSpec());
      for (String arch : declaredArchs) {
        if (!allowed.isEmpty() && !allowed.contains(arch)) {
          out.add(
              MULTI_ARCH,
              Category.PORTABILITY,
              Severity.WARNING,
              pod.object(),
              "spec.template.spec.affinity.nodeAffinity",
              pod.object()
                  + ": the CSV label "
                  + ARCH_LABEL
                  + arch
                  + " says supported but node affinity allows only "
                  + allowed);
        }
      }
    }
  }

  /**
   * The kubernetes.io/arch values required node affinity allows (In), empty when it does not
   * restrict.
   */
  private static List<String> archAffinity(JsonNode podSpec) {
    List<String> out = new ArrayList<>();
    JsonNode terms =
        podSpec
            .path("affinity")
            .path("nodeAffinity")
            .path("requiredDuringSchedulingIgnoredDuringExecution");
    for (JsonNode term : Json.array(terms, "nodeSelectorTerms")) {
      for (JsonNode expr : Json.array(term, "matchExpressions")) {
        if ("kubernetes.io/arch".equals(Json.text(expr, "key"))
            && "In".equals(Json.text(expr, "operator"))) {
          out.addAll(Json.strings(expr, "values"));
        }
      }
    }
    return out;
  }
}
