package io.olmstead.agent.inventory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A KubePlus relationship annotation on a CRD ({@code resource/annotation-relationship} or {@code
 * resource/label-relationship}), e.g. {@code on:Pod;Deployment, key:app.kubernetes.io/instance,
 * value:INSTANCE.metadata.name}: objects of those kinds, in the custom resource's namespace, whose
 * annotation (or label) {@code key} holds the custom resource's name belong to it. Only {@code
 * INSTANCE.metadata.name} values are followed.
 */
record Relationship(boolean label, Set<String> kinds, String key) {
  static final String ANNOTATION = "resource/annotation-relationship";
  static final String LABEL = "resource/label-relationship";

  /** The relationships a CRD's annotations declare (malformed ones are ignored). */
  static List<Relationship> of(Map<String, String> annotations) {
    List<Relationship> out = new ArrayList<>();
    if (annotations != null) {
      parse(annotations.get(ANNOTATION), false).ifPresent(out::add);
      parse(annotations.get(LABEL), true).ifPresent(out::add);
    }
    return out;
  }

  static Optional<Relationship> parse(String text, boolean label) {
    if (text == null || text.length() > 1024) {
      return Optional.empty();
    }
    String on = null;
    String key = null;
    String value = null;
    for (String part : text.split(",")) {
      int colon = part.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String name = part.substring(0, colon).trim();
      String val = part.substring(colon + 1).trim();
      switch (name) {
        case "on" -> on = val;
        case "key" -> key = val;
        case "value" -> value = val;
        default -> {}
      }
    }
    if (on == null
        || on.isEmpty()
        || key == null
        || key.isEmpty()
        || !"INSTANCE.metadata.name".equals(value)) {
      return Optional.empty();
    }
    Set<String> kinds =
        Set.of(
            Arrays.stream(on.split(";"))
                .map(String::trim)
                .filter(k -> !k.isEmpty())
                .distinct()
                .toArray(String[]::new));
    return kinds.isEmpty() ? Optional.empty() : Optional.of(new Relationship(label, kinds, key));
  }
}
