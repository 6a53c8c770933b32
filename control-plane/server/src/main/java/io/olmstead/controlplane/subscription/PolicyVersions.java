package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The version each subscription's declared policy leads to in its catalog's current revision, as
 * the agents' desired state computes it ({@link DesiredState#ceiling}): the pinned version, the
 * highest version of the range in the channel, or the channel head. What a cluster settled below it
 * is behind (the fleet matrix's {@code BehindPolicy}).
 */
public final class PolicyVersions {
  private static final String POLICIES =
      "SELECT name, catalog, package, channel, version_kind, version_value "
          + "FROM subscriptions WHERE name = ANY($1)";

  private PolicyVersions() {}

  private record Policy(
      String name, String catalog, String pkg, String channel, VersionPolicy version) {}

  /**
   * The version by subscription of {@code names}; a subscription whose policy leads to no version
   * (no revision, no such channel or bundle) is left out. One catalog view per distinct catalog and
   * package.
   */
  public static Future<Map<String, String>> of(SqlClient conn, String[] names) {
    return conn.preparedQuery(POLICIES)
        .execute(Tuple.of((Object) names))
        .compose(
            rows -> {
              List<Policy> policies = new ArrayList<>();
              for (Row r : rows) {
                policies.add(
                    new Policy(
                        r.getString("name"),
                        r.getString("catalog"),
                        r.getString("package"),
                        r.getString("channel"),
                        new VersionPolicy(
                            VersionPolicy.Kind.valueOf(
                                r.getString("version_kind").toUpperCase(Locale.ROOT)),
                            r.getString("version_value"))));
              }
              Map<String, Future<Optional<CatalogView>>> views = new HashMap<>();
              policies.forEach(
                  p ->
                      views.computeIfAbsent(
                          p.catalog() + "\n" + p.pkg(),
                          k -> CatalogViews.forPackage(conn, p.catalog(), p.pkg())));
              return Future.all(List.copyOf(views.values()))
                  .map(
                      v -> {
                        Map<String, String> out = new HashMap<>();
                        for (Policy p : policies) {
                          views
                              .get(p.catalog() + "\n" + p.pkg())
                              .result()
                              .flatMap(view -> view.pkg(p.pkg()))
                              .flatMap(pkg -> pkg.channel(p.channel()))
                              .map(
                                  channel ->
                                      DesiredState.ceiling(p.version(), channel).maxVersion())
                              .ifPresent(version -> out.put(p.name(), version));
                        }
                        return out;
                      });
            });
  }
}
