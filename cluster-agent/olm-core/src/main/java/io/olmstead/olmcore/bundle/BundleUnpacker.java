package io.olmstead.olmcore.bundle;

import io.olmstead.olmcore.fbc.BundleObject;
import io.olmstead.olmcore.fbc.FbcException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a registry+v1 bundle from its image layers (pure: streams in, objects out). Layers are
 * applied in order ({@link ImageFiles}), then every file of {@code manifests/} becomes a {@link
 * BundleObject} decoded with the catalog parser's limits and safe YAML (once per content: links
 * share one object), and {@code metadata/annotations.yaml} gives the annotations.
 */
public final class BundleUnpacker {

  private final BundleLimits limits;

  public BundleUnpacker(BundleLimits limits) {
    this.limits = limits;
  }

  /** Unpacks layers given in manifest order; each stream may be gzip-compressed or a plain tar. */
  public UnpackedBundle unpack(String bundle, List<InputStream> layers)
      throws BundleUnpackException {
    Map<String, byte[]> files = ImageFiles.apply(layers, limits.tar(), BundleUnpacker::kept);
    List<BundleObject> objects = new ArrayList<>();
    Map<byte[], BundleObject> decoded = new IdentityHashMap<>();
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      String path = f.getKey();
      if (path.startsWith("manifests/") && path.indexOf('/', "manifests/".length()) < 0) {
        BundleObject o = decoded.get(f.getValue());
        if (o == null) {
          o = decode(bundle, path, f.getValue());
          decoded.put(f.getValue(), o);
        }
        objects.add(o);
      }
    }
    if (objects.isEmpty()) {
      throw new BundleUnpackException("not a bundle image: no files in manifests/");
    }
    return new UnpackedBundle(objects, annotations(files.get("metadata/annotations.yaml")));
  }

  /** The directories a registry+v1 bundle is read from. */
  private static boolean kept(String path) {
    return path.startsWith("manifests/") || path.startsWith("metadata/");
  }

  private BundleObject decode(String bundle, String path, byte[] content)
      throws BundleUnpackException {
    try {
      return BundleObject.fromManifest(bundle, path, content, limits.parse());
    } catch (FbcException e) {
      throw new BundleUnpackException(e.getMessage(), e);
    }
  }

  private Map<String, String> annotations(byte[] yaml) throws BundleUnpackException {
    Map<String, String> out = new LinkedHashMap<>();
    if (yaml == null) {
      return out;
    }
    try {
      BundleObject.decodeDocument("metadata/annotations.yaml", yaml, limits.parse())
          .path("annotations")
          .fields()
          .forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
    } catch (FbcException e) {
      throw new BundleUnpackException(e.getMessage(), e);
    }
    return out;
  }
}
