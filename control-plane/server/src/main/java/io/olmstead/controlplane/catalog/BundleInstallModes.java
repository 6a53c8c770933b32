package io.olmstead.controlplane.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.BundleObject;
import io.olmstead.olmcore.fbc.CsvMetadata;
import io.olmstead.olmcore.fbc.FbcException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The install modes a catalog says a bundle supports: its {@code olm.csv.metadata}, else the CSV
 * among its embedded objects; null when the catalog does not tell (an image-only bundle without CSV
 * metadata). Pure.
 */
final class BundleInstallModes {
  private BundleInstallModes() {}

  static List<String> of(Bundle bundle) {
    Optional<CsvMetadata> metadata = bundle.csvMetadata();
    if (metadata.isPresent()) {
      return metadata.get().installModes().stream()
          .filter(CsvMetadata.InstallMode::supported)
          .map(CsvMetadata.InstallMode::type)
          .toList();
    }
    try {
      for (BundleObject object : bundle.objects()) {
        JsonNode manifest = object.manifest();
        if ("ClusterServiceVersion".equals(manifest.path("kind").asText())) {
          List<String> supported = new ArrayList<>();
          manifest
              .path("spec")
              .path("installModes")
              .forEach(
                  m -> {
                    if (m.path("supported").asBoolean(false)) {
                      supported.add(m.path("type").asText());
                    }
                  });
          return supported;
        }
      }
    } catch (FbcException | RuntimeException e) {
      return null; // validation reports an undecodable object; here the catalog just does not tell
    }
    return null;
  }
}
