package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.maturity.MaturityPolicy;
import io.olmstead.controlplane.maturity.MaturityService;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.subscription.CatalogView.ChannelView;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import java.util.Optional;

/**
 * Refuses a subscription whose target bundle (the channel's bundle at the version policy's ceiling)
 * breaks its {@code requirements.maturity}: 422 listing the findings. The report is the stored one
 * (computed once per bundle).
 */
final class MaturityGate {
  private final MaturityService maturity;

  MaturityGate(MaturityService maturity) {
    this.maturity = maturity;
  }

  /**
   * Call after {@link SubscriptionValidation#againstCatalog} found no error (so package and channel
   * exist).
   */
  Future<Void> check(SubscriptionSpec spec, CatalogView view) {
    if (!MaturityPolicy.present(spec.requirements())) {
      return Future.succeededFuture();
    }
    Optional<ChannelView> channel =
        view.pkg(spec.packageName()).flatMap(p -> p.channel(spec.channel()));
    String max =
        channel.map(c -> DesiredState.ceiling(spec.version(), c).maxVersion()).orElse(null);
    Optional<String> bundle =
        Optional.ofNullable(max)
            .flatMap(Version::tryParse)
            .flatMap(v -> channel.flatMap(c -> c.bundleWithVersion(v)));
    if (bundle.isEmpty()) {
      return Future.succeededFuture();
    }
    return maturity
        .stored(spec.catalog(), spec.packageName(), bundle.get())
        .map(
            report -> {
              JsonArray errors = MaturityPolicy.violations(spec.requirements(), report);
              if (!errors.isEmpty()) {
                throw ApiException.validationFailed(
                    "bundle "
                        + bundle.get()
                        + " breaks the subscription's maturity "
                        + "requirements",
                    errors);
              }
              return null;
            });
  }
}
