package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.BundleObject;
import io.olmstead.olmcore.fbc.FbcException;
import io.olmstead.olmcore.fbc.RelatedImage;
import java.util.ArrayList;
import java.util.List;

/**
 * What the rules read: a bundle's manifests (from {@code olm.bundle.object}s or an unpacked bundle
 * image), its CSV metadata (for metadata-only catalogs), related images, and whether a channel has
 * an upgrade edge into it.
 *
 * @param csv the ClusterServiceVersion manifest, null when the bundle has no objects
 * @param csvMetadata the {@code olm.csv.metadata} value (or the CSV's metadata+spec), null when
 *     absent
 * @param upgradeEdge true/false when the caller knows the channel graph, null when unknown
 * @param undecodable one message per object that could not be decoded
 */
public record BundleView(
    String bundle,
    JsonNode csv,
    List<JsonNode> objects,
    JsonNode csvMetadata,
    List<RelatedImage> relatedImages,
    Boolean upgradeEdge,
    List<String> undecodable) {

  public BundleView {
    objects = objects == null ? List.of() : List.copyOf(objects);
    relatedImages = relatedImages == null ? List.of() : List.copyOf(relatedImages);
    undecodable = undecodable == null ? List.of() : List.copyOf(undecodable);
  }

  /** True when there are manifests to check (false for metadata-only catalogs). */
  public boolean hasObjects() {
    return csv != null || !objects.isEmpty();
  }

  /**
   * The view of a catalog bundle: every embedded object decoded (failures kept as messages, never
   * thrown).
   */
  public static BundleView of(Bundle bundle, Boolean upgradeEdge) {
    List<JsonNode> manifests = new ArrayList<>();
    List<String> bad = new ArrayList<>();
    for (BundleObject o : bundle.objects()) {
      try {
        manifests.add(o.manifest());
      } catch (FbcException | RuntimeException e) {
        bad.add(e.getMessage());
      }
    }
    JsonNode meta = bundle.csvMetadata().map(m -> m.raw()).orElse(null);
    return of(bundle.name(), manifests, meta, bundle.relatedImages(), upgradeEdge, bad);
  }

  /**
   * The view of manifests from any source (an unpacked bundle image, a test); the first CSV is the
   * CSV.
   */
  public static BundleView of(
      String bundle,
      List<JsonNode> manifests,
      JsonNode csvMetadata,
      List<RelatedImage> relatedImages,
      Boolean upgradeEdge,
      List<String> undecodable) {
    JsonNode csv = null;
    List<JsonNode> others = new ArrayList<>();
    List<String> bad = new ArrayList<>(undecodable == null ? List.of() : undecodable);
    for (JsonNode m : manifests == null ? List.<JsonNode>of() : manifests) {
      if (m == null || !m.isObject()) {
        bad.add("an object is not a JSON object");
      } else if (csv == null && "ClusterServiceVersion".equals(m.path("kind").asText(null))) {
        csv = m;
      } else {
        others.add(m);
      }
    }
    JsonNode meta = csvMetadata;
    if (meta == null && csv != null) {
      meta = Json.csvMetadataOf(csv);
    }
    return new BundleView(bundle, csv, others, meta, relatedImages, upgradeEdge, bad);
  }
}
