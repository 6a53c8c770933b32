package io.olmstead.controlplane.clusters;

import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.subscription.CatalogView;
import io.olmstead.controlplane.subscription.CatalogViews;
import io.olmstead.controlplane.subscription.SubscriptionSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;

/**
 * Approvals name a bundle of the subscription's channel in its catalog's current revision: any
 * other name would be stored and the agent would wait for ever for a bundle it can never be offered
 * (422 on {@code /bundle} instead).
 */
final class ChannelBundles {
  private ChannelBundles() {}

  static Future<Void> requireInChannel(SqlClient client, SubscriptionSpec spec, String bundle) {
    return CatalogViews.forPackage(client, spec.catalog(), spec.packageName())
        .map(
            view -> {
              boolean present =
                  view.flatMap(v -> v.pkg(spec.packageName()))
                      .flatMap(p -> p.channel(spec.channel()))
                      .map(CatalogView.ChannelView::bundleVersions)
                      .map(bundles -> bundles.containsKey(bundle))
                      .orElse(false);
              if (!present) {
                String channel =
                    spec.channel() == null ? "the default channel" : "channel " + spec.channel();
                String message =
                    "bundle "
                        + bundle
                        + " is not in "
                        + channel
                        + " of package "
                        + spec.packageName()
                        + " in catalog "
                        + spec.catalog()
                        + " (use the bundle the cluster reports in RequiresApproval)";
                throw ApiException.validationFailed(
                    message,
                    new JsonArray()
                        .add(new JsonObject().put("field", "/bundle").put("message", message)));
              }
              return null;
            });
  }
}
