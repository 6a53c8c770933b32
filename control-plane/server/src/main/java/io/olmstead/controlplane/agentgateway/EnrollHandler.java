package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.http.RequestIds;
import io.olmstead.controlplane.problem.Problems;
import io.vertx.core.Handler;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/v1/agent/enroll} (operationId enrollAgent): enrollment token in, cluster
 * credential out.
 */
public final class EnrollHandler implements Handler<RoutingContext> {
  private static final Logger LOG = LoggerFactory.getLogger(EnrollHandler.class);
  public static final Pattern DNS_LABEL = Pattern.compile("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$");
  public static final Pattern LABEL_KEY =
      Pattern.compile(
          "^([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/)?"
              + "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$");
  public static final Pattern LABEL_VALUE =
      Pattern.compile("^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$");

  private final Enrollment enrollment;
  private final GatewayMetrics metrics;

  EnrollHandler(Enrollment enrollment, GatewayMetrics metrics) {
    this.enrollment = enrollment;
    this.metrics = metrics;
  }

  @Override
  public void handle(RoutingContext ctx) {
    Optional<String> token = BearerToken.of(ctx.request());
    if (token.isEmpty()) {
      metrics.enrolled("unauthorized");
      Problems.send(
          ctx.response(),
          Problems.problem(
              401,
              "unauthorized",
              "Unauthorized",
              "an enrollment token is required (Authorization: Bearer)"));
      return;
    }
    JsonObject body;
    try {
      body = ctx.body() == null || ctx.body().buffer() == null ? null : ctx.body().asJsonObject();
    } catch (DecodeException | ClassCastException e) {
      body = null;
    }
    String invalid = invalid(body);
    if (invalid != null) {
      metrics.enrolled("invalid");
      Problems.send(
          ctx.response(),
          Problems.problem(
              body == null ? 400 : 422,
              body == null ? "bad-request" : "validation-failed",
              "Invalid enrollment request",
              invalid));
      return;
    }
    String name = body.getString("clusterName");
    JsonObject labels = body.getJsonObject("labels", new JsonObject());
    String requestId = ctx.get(RequestIds.KEY);
    enrollment
        .enroll(token.get(), name, labels, body.getJsonObject("facts"), requestId)
        .onComplete(
            ar -> {
              if (ar.failed()) {
                LOG.error("enrollment of cluster {} failed", name, ar.cause());
                metrics.enrolled("error");
                Problems.send(
                    ctx.response(), Problems.problem(500, "internal", "Internal error", null));
                return;
              }
              Enrollment.Result result = ar.result();
              if (!result.enrolled()) {
                metrics.enrolled(result.code());
                if (result.status() == 503) {
                  ctx.response().putHeader("Retry-After", "2");
                }
                Problems.send(
                    ctx.response(),
                    Problems.problem(
                        result.status(), result.code(), "Enrollment refused", result.detail()));
                return;
              }
              metrics.enrolled("enrolled");
              LOG.info("cluster {} enrolled", name);
              ctx.response()
                  .setStatusCode(201)
                  .putHeader("content-type", "application/json")
                  .putHeader("cache-control", "no-store")
                  .end(
                      new JsonObject()
                          .put("clusterName", name)
                          .put("credential", result.credential())
                          .put("labels", result.labels())
                          .encode());
            });
  }

  /** What is wrong with the body, or null; the same rules as the spec's EnrollRequest. */
  static String invalid(JsonObject body) {
    if (body == null) {
      return "the body must be a JSON object";
    }
    for (String field : body.fieldNames()) {
      if (!field.equals("clusterName") && !field.equals("labels") && !field.equals("facts")) {
        return "unknown field " + field;
      }
    }
    if (!(body.getValue("clusterName") instanceof String name)
        || !DNS_LABEL.matcher(name).matches()) {
      return "clusterName must be a DNS-1123 label";
    }
    if (!(body.getValue("facts") instanceof JsonObject facts) || facts.size() > 64) {
      return "facts must be an object of at most 64 properties";
    }
    Object labels = body.getValue("labels");
    if (labels != null) {
      if (!(labels instanceof JsonObject map) || map.size() > 64) {
        return "labels must be an object of at most 64 labels";
      }
      for (Map.Entry<String, Object> e : map) {
        if (!LABEL_KEY.matcher(e.getKey()).matches()
            || !(e.getValue() instanceof String v)
            || !LABEL_VALUE.matcher(v).matches()) {
          return "label " + e.getKey() + " is not a valid Kubernetes label";
        }
      }
    }
    return null;
  }
}
