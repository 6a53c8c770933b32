package io.olmstead.controlplane.registry;

import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.testsupport.SharedFolder;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.BundleObject;
import io.olmstead.olmcore.fbc.DeclarativeConfig;
import io.olmstead.olmcore.fbc.FbcParser;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bundle images built from the shared {@code bundled/} catalog's embedded manifests: one gzip layer
 * with {@code manifests/*.json} and {@code metadata/annotations.yaml}, an OCI manifest and a config
 * with the bundle labels.
 */
public final class BundleImages {
  private BundleImages() {}

  /**
   * The {@code bundled/} catalog, parsed; skips the test (saying why) when the shared folder is
   * absent.
   */
  public static DeclarativeConfig bundledCatalog() throws Exception {
    return new FbcParser().parseDirectory(SharedFolder.require("catalogs/bundled"));
  }

  public static Bundle bundle(DeclarativeConfig catalog, String name) {
    return catalog.bundles().stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
  }

  /**
   * The layer of a bundle: its objects as {@code manifests/NN-kind-name.json}, and the annotations.
   */
  public static byte[] layer(Bundle bundle) {
    Map<String, byte[]> files = new LinkedHashMap<>();
    List<BundleObject> objects = bundle.objects();
    for (int i = 0; i < objects.size(); i++) {
      String file = String.format("manifests/%02d-%s.json", i, objects.get(i).kind());
      files.put(file, Base64.getMimeDecoder().decode(objects.get(i).data()));
    }
    files.put(
        "metadata/annotations.yaml",
        ("annotations:\n"
                + "  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n"
                + "  operators.operatorframework.io.bundle.manifests.v1: manifests/\n"
                + "  operators.operatorframework.io.bundle.metadata.v1: metadata/\n"
                + "  operators.operatorframework.io.bundle.package.v1: "
                + bundle.packageName()
                + "\n")
            .getBytes(StandardCharsets.UTF_8));
    return CatalogFixtures.tarGz(files);
  }

  /**
   * Pushes a bundle's image as {@code bundles/<package>:<bundle name>}; returns {@code
   * host/repo@digest}.
   */
  public static String push(TestRegistry registry, Bundle bundle) {
    String repo = "bundles/" + bundle.packageName();
    String digest =
        registry
            .pusher()
            .image(
                repo,
                bundle.name(),
                ImagePusher.OCI_MANIFEST,
                Map.of(
                    "operators.operatorframework.io.bundle.mediatype.v1",
                    "registry+v1",
                    "operators.operatorframework.io.bundle.package.v1",
                    bundle.packageName()),
                List.of(layer(bundle)));
    return registry.host() + "/" + repo + "@" + digest;
  }
}
