package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.ParseLimits;
import io.olmstead.olmcore.fbc.Property;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The objects of bundles that name only an image, fetched by digest from the control plane ({@code
 * GET /api/v1/agent/bundles/{digest}}): clusters never talk to a registry. Kept by digest
 * (immutable) in a Caffeine cache weighed by bytes; a bundle the control plane has not unpacked yet
 * is reported {@code BundleUnpacking}.
 */
final class ControlPlaneBundles {
  private static final Logger LOG = LoggerFactory.getLogger(ControlPlaneBundles.class);
  private static final Pattern PINNED = Pattern.compile("@(sha256:[a-f0-9]{64})$");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MAX_BODY = ParseLimits.defaults().maxTotalBytes();

  private final URI base;
  private final CredentialStorage credentials;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private final Cache<String, Fetched> cache;
  private final BundlePinLookup pins;

  /** A bundle's objects and the size of the body they came in (what the cache weighs). */
  private record Fetched(List<Property> objects, int bytes) {}

  ControlPlaneBundles(URI base, CredentialStorage credentials, long maxCacheBytes) {
    this.base = base;
    this.credentials = credentials;
    this.cache =
        Caffeine.newBuilder()
            .maximumWeight(maxCacheBytes)
            .weigher((String digest, Fetched fetched) -> fetched.bytes())
            .executor(Runnable::run)
            .build();
    this.pins = new BundlePinLookup(base, http);
  }

  synchronized BundleContent content(Bundle bundle) {
    if (!bundle.objects().isEmpty() || bundle.image() == null || bundle.image().isBlank()) {
      return BundleContent.ready(
          bundle); // embedded (or neither: the install plan reports what is missing)
    }
    Optional<String> credential = credentials.load();
    Matcher m = PINNED.matcher(bundle.image());
    String digest;
    if (m.find()) {
      digest = m.group(1);
    } else {
      // named by tag: the control plane resolved it once for the catalog revision; ask which digest
      // that was
      if (credential.isEmpty()) {
        return BundleContent.unpacking("not enrolled yet");
      }
      BundlePinLookup.Pin pin = pins.pin(bundle.image(), credential.get());
      if (pin.digest() == null) {
        return pin.waiting();
      }
      digest = pin.digest();
    }
    Fetched fetched = cache.getIfPresent(digest);
    if (fetched == null) {
      if (credential.isEmpty()) {
        return BundleContent.unpacking("not enrolled yet");
      }
      Outcome result = fetch(bundle, digest, credential.get());
      if (result.waiting() != null) {
        return result.waiting();
      }
      fetched = result.fetched();
      cache.put(digest, fetched);
    }
    List<Property> props = new ArrayList<>(bundle.properties());
    props.addAll(fetched.objects());
    return BundleContent.ready(
        new Bundle(
            bundle.packageName(), bundle.name(), bundle.image(), props, bundle.relatedImages()));
  }

  /** The fetched objects, or (fetched null) the status to report. */
  private record Outcome(Fetched fetched, BundleContent waiting) {
    static Outcome waiting(BundleContent status) {
      return new Outcome(null, status);
    }
  }

  private Outcome fetch(Bundle bundle, String digest, String credential) {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(base.resolve("/api/v1/agent/bundles/" + digest))
              .header("Authorization", "Bearer " + credential)
              .header("Accept-Encoding", "gzip")
              .timeout(Duration.ofMinutes(1))
              .GET()
              .build();
      HttpResponse<InputStream> response =
          http.send(request, HttpResponse.BodyHandlers.ofInputStream());
      byte[] body;
      try (InputStream in = response.body()) {
        body =
            EncodedBody.read(
                in, response.headers().firstValue("Content-Encoding").orElse(""), MAX_BODY);
      }
      if (response.statusCode() == 409) {
        JsonNode problem = JSON.readTree(body);
        String state = problem.path("state").asText("Pending");
        String detail = problem.path("detail").asText(state);
        return Outcome.waiting(
            "Failed".equals(state)
                ? BundleContent.failed("bundle image " + bundle.image() + ": " + detail)
                : BundleContent.unpacking(
                    "bundle image " + bundle.image() + " is being unpacked (" + state + ")"));
      }
      if (response.statusCode() == 404) {
        return Outcome.waiting(
            BundleContent.unpacking("bundle image " + bundle.image() + " is not unpacked yet"));
      }
      if (response.statusCode() != 200) {
        return Outcome.waiting(
            BundleContent.unpacking(
                "bundle image "
                    + bundle.image()
                    + ": control plane answered HTTP "
                    + response.statusCode()));
      }
      return new Outcome(new Fetched(objects(JSON.readTree(body)), body.length), null);
    } catch (IOException e) {
      LOG.warn("bundle {} ({}) not fetched: {}", bundle.name(), digest, e.getMessage());
      return Outcome.waiting(
          BundleContent.unpacking(
              "bundle image " + bundle.image() + " not fetched: " + e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Outcome.waiting(BundleContent.unpacking("interrupted"));
    }
  }

  private static List<Property> objects(JsonNode doc) {
    List<Property> out = new ArrayList<>();
    for (JsonNode o : doc.path("objects")) {
      out.add(
          new Property(
              "olm.bundle.object",
              JsonNodeFactory.instance.objectNode().put("data", o.path("data").asText())));
    }
    return List.copyOf(out);
  }
}
