package io.olmstead.controlplane.adoption;

import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.subscription.Subscription;
import io.olmstead.controlplane.subscription.SubscriptionStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code GET /subscriptions/{name}/adoption}: the subscription's clusters by installed version at
 * points {@code step} apart over the last {@code since}, each point the snapshot in effect then
 * (see {@link AdoptionSampler}). Only rows written while the subscription belonged to its current
 * team are read; another team's subscription is a 404.
 */
public final class AdoptionModule implements ApiModule {
  // for each point, the latest snapshot at or before it (a backward scan of the primary key), then
  // its rows
  private static final String POINTS =
      "WITH points AS (SELECT t FROM generate_series($2::timestamptz, "
          + "$3::timestamptz, make_interval(secs => $4)) AS t), snaps AS (SELECT p.t, (SELECT max(a.at) FROM "
          + "subscription_adoption a WHERE a.subscription = $1 AND a.team IS NOT DISTINCT FROM $5 AND a.at <= p.t) AS at "
          + "FROM points p) SELECT s.t, a.version, a.clusters FROM snaps s LEFT JOIN subscription_adoption a "
          + "ON a.subscription = $1 AND a.at = s.at AND a.team IS NOT DISTINCT FROM $5 AND a.clusters > 0 "
          + "ORDER BY s.t, a.version";

  private final SubscriptionStore subscriptions = new SubscriptionStore();
  private ApiContext context;

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "getSubscriptionAdoption", this::adoption);
  }

  private Future<Reply> adoption(ApiRequest request) {
    String name = request.path("name");
    AdoptionRange range =
        AdoptionRange.parse(
            request.query("since").orElse(null), request.query("step").orElse(null));
    Instant end = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Instant start = end.minus(range.since());
    return context
        .tx()
        .read(
            conn ->
                subscriptions
                    .get(conn, name)
                    .compose(
                        found -> {
                          Subscription s =
                              request
                                  .principal()
                                  .visible(
                                      found,
                                      x -> x.spec().team(),
                                      "subscription " + name + " does not exist");
                          return conn.preparedQuery(POINTS)
                              .execute(
                                  Tuple.of(
                                      name,
                                      start.atOffset(ZoneOffset.UTC),
                                      end.atOffset(ZoneOffset.UTC),
                                      (double) range.step().toSeconds(),
                                      s.spec().team()));
                        }))
        .map(
            rows -> {
              Map<String, JsonObject> points = new LinkedHashMap<>();
              TreeSet<String> versions = new TreeSet<>();
              for (Row row : rows) {
                JsonObject clusters =
                    points.computeIfAbsent(
                        row.getOffsetDateTime("t").toInstant().toString(), k -> new JsonObject());
                String version = row.getString("version");
                if (version != null) {
                  clusters.put(version, row.getInteger("clusters"));
                  versions.add(version);
                }
              }
              JsonArray out = new JsonArray();
              points.forEach(
                  (at, clusters) ->
                      out.add(new JsonObject().put("at", at).put("clusters", clusters)));
              return Reply.ok(
                  new JsonObject()
                      .put("subscription", name)
                      .put("since", range.since().toString())
                      .put("step", range.step().toString())
                      .put("versions", new JsonArray(versions.stream().toList()))
                      .put("points", out));
            });
  }
}
