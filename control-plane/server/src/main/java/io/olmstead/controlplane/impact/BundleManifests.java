package io.olmstead.controlplane.impact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The objects of one bundle an impact report compares: its CSV and its CRDs by name, with the
 * bundle's {@code olm.maxOpenShiftVersion} (null: none). {@code unavailable} says why the objects
 * could not be had (an image not unpacked yet): the report then names the bundle without diffing
 * it.
 */
public record BundleManifests(
    String bundle,
    String version,
    String maxOpenShiftVersion,
    JsonNode csv,
    Map<String, JsonNode> crds,
    String unavailable) {
  /** Nothing installed: every permission, CRD and webhook of the target is new. */
  public static final BundleManifests NONE =
      new BundleManifests(null, null, null, null, Map.of(), null);

  public BundleManifests {
    crds = crds == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(crds));
  }

  /** The CSV and CRDs among a bundle's manifests (the other kinds are not compared). */
  public static BundleManifests of(
      String bundle, String version, String maxOpenShiftVersion, List<JsonNode> manifests) {
    JsonNode csv = null;
    Map<String, JsonNode> crds = new TreeMap<>();
    for (JsonNode m : manifests) {
      String kind = m.path("kind").asText("");
      if ("ClusterServiceVersion".equals(kind) && csv == null) {
        csv = m;
      } else if ("CustomResourceDefinition".equals(kind)) {
        String name = m.path("metadata").path("name").asText("");
        if (!name.isEmpty()) {
          crds.put(name, m);
        }
      }
    }
    return new BundleManifests(bundle, version, maxOpenShiftVersion, csv, crds, null);
  }

  /** A bundle whose objects cannot be had, and why. */
  public static BundleManifests unavailable(
      String bundle, String version, String maxOpenShiftVersion, String why) {
    return new BundleManifests(bundle, version, maxOpenShiftVersion, null, Map.of(), why);
  }

  /** The CSV's {@code spec}, or a missing node. */
  JsonNode csvSpec() {
    return csv == null ? MissingNode.getInstance() : csv.path("spec");
  }
}
