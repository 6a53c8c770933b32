package io.olmstead.controlplane.webhooks;

import io.olmstead.controlplane.config.WebhookSettings;
import io.olmstead.controlplane.http.AddressRanges;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A webhook as a caller declares it, validated (pure): an http(s) URL without credentials in it, 1
 * to 32 CloudEvents type patterns ({@code io.olmstead.rollout.paused}, {@code
 * io.olmstead.rollout.*}, {@code *}) and a secret of 16 to 256 characters for the HMAC. Every
 * problem is reported with the field it concerns.
 */
public record WebhookSpec(String url, List<String> events, String secret) {
  static final Pattern EVENT = Pattern.compile("\\*|[a-z0-9]+(\\.[a-z0-9]+)*(\\.\\*)?");
  static final int MAX_EVENTS = 32;

  /** One field's problem, as the API reports it. */
  public record Problem(String field, String message) {}

  public static List<Problem> problems(JsonObject body, boolean allowPrivate) {
    List<Problem> problems = new ArrayList<>();
    String url = body.getString("url");
    if (url == null) {
      problems.add(new Problem("/url", "url is required"));
    } else {
      urlProblem(url, allowPrivate).ifPresent(m -> problems.add(new Problem("/url", m)));
    }
    JsonArray events = body.getJsonArray("events");
    if (events == null || events.isEmpty() || events.size() > MAX_EVENTS) {
      problems.add(
          new Problem(
              "/events", "events must list 1 to " + MAX_EVENTS + " CloudEvents type patterns"));
    } else {
      for (int i = 0; i < events.size(); i++) {
        Object e = events.getValue(i);
        if (!(e instanceof String s) || s.length() > 253 || !EVENT.matcher(s).matches()) {
          problems.add(
              new Problem(
                  "/events/" + i,
                  "not a CloudEvents type pattern (e.g. io.olmstead.rollout.* or "
                      + "io.olmstead.rollout.paused)"));
        }
      }
    }
    String secret = body.getString("secret");
    if (secret == null || secret.length() < 16 || secret.length() > 256) {
      problems.add(
          new Problem("/secret", "secret must be 16 to 256 characters (the HMAC-SHA256 key)"));
    }
    return problems;
  }

  static Optional<String> urlProblem(String url, boolean allowPrivate) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      return Optional.of("not a URL: " + e.getReason());
    }
    if (url.length() > 2048
        || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
        || uri.getHost() == null) {
      return Optional.of("must be an absolute http(s) URL of at most 2048 characters");
    }
    if (uri.getRawUserInfo() != null) {
      return Optional.of(
          "must not carry credentials; the receiver checks X-Olmstead-Signature instead");
    }
    if (uri.getFragment() != null) {
      return Optional.of("must not have a fragment");
    }
    if (!allowPrivate
        && (AddressRanges.isLocalhostName(uri.getHost())
            || AddressRanges.literal(uri.getHost()).map(AddressRanges::isPrivate).orElse(false))) {
      return Optional.of(
          "points at a loopback, link-local or private address; set "
              + WebhookSettings.ALLOW_PRIVATE
              + "=true to allow receivers inside the cluster network");
    }
    return Optional.empty();
  }
}
