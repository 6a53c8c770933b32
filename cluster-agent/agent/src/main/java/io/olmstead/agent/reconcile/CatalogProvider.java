package io.olmstead.agent.reconcile;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import java.util.Optional;

/**
 * Catalog content for resolution, by catalog name and revision digest. Production fetches it
 * through the channel (cached by digest); tests load {@code ../shared/catalogs/bundled}. Named
 * apart from olm-core's {@code resolver.CatalogSource} record, which this feeds.
 */
public interface CatalogProvider {
  /**
   * The catalog, or empty while it is not available (the subscription stays Pending and is
   * retried).
   */
  Optional<Catalog> catalog(String name, String digest);

  /**
   * The bundle with its objects: as is when it embeds them ({@code olm.bundle.object}); for a
   * bundle that only names an image, the objects the control plane unpacked from it, or why they
   * are not there yet.
   */
  default BundleContent content(Bundle bundle) {
    return BundleContent.ready(bundle);
  }
}
