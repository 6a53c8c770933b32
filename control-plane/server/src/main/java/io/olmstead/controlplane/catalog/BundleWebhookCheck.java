package io.olmstead.controlplane.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.BundleObject;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.FbcException;
import io.olmstead.olmcore.fbc.ValidationIssue;
import io.olmstead.olmcore.installplan.WebhookDefinitions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs olm-core's webhook planning checks ({@link WebhookDefinitions}) on every bundle whose CSV
 * the catalog carries ({@code olm.bundle.object}): a bundle the agent would refuse to install is
 * named with the field at fault. Pure and blocking (decodes the objects): call it on a worker.
 */
final class BundleWebhookCheck {
  private BundleWebhookCheck() {}

  /**
   * One issue per bundle with a problem, field {@code bundles[<bundle>].csv.<field in the CSV>}.
   */
  static List<ValidationIssue> issues(Catalog catalog) {
    List<ValidationIssue> out = new ArrayList<>();
    for (CatalogPackage p : catalog.packages()) {
      for (Bundle b : p.bundles()) {
        check(p.name(), b).ifPresent(out::add);
      }
    }
    return out;
  }

  private static Optional<ValidationIssue> check(String pkg, Bundle bundle) {
    if (bundle.objects().isEmpty()) {
      return Optional.empty();
    }
    List<JsonNode> manifests = new ArrayList<>();
    for (BundleObject object : bundle.objects()) {
      try {
        manifests.add(object.manifest());
      } catch (FbcException e) {
        return Optional.of(
            new ValidationIssue(
                pkg,
                null,
                bundle.name(),
                "bundles[" + bundle.name() + "].properties",
                "bundle "
                    + bundle.name()
                    + " has an undecodable olm.bundle.object: "
                    + e.getMessage()));
      }
    }
    return WebhookDefinitions.check(manifests)
        .map(
            problem ->
                new ValidationIssue(
                    pkg,
                    null,
                    bundle.name(),
                    "bundles[" + bundle.name() + "].csv." + problem.field(),
                    problem.message()));
  }
}
