package io.olmstead.olmcore.bundle;

import io.olmstead.olmcore.fbc.BundleObject;
import java.util.List;
import java.util.Map;

/**
 * A registry+v1 bundle read from its image: the objects of {@code manifests/} (in file name order,
 * like opm) and the annotations of {@code metadata/annotations.yaml} (empty when absent).
 */
public record UnpackedBundle(List<BundleObject> objects, Map<String, String> annotations) {

  public UnpackedBundle {
    objects = List.copyOf(objects);
    annotations = Map.copyOf(annotations);
  }
}
