package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The digest a bundle image named by tag was pinned to by the control plane ({@code GET
 * /api/v1/agent/bundle-pins}): agents never resolve tags (they never talk to registries). Answers
 * are kept for {@code TTL} (a new catalog revision may pin the tag anew), at most {@code MAX} of
 * them. Callers hold the {@link ControlPlaneBundles} lock.
 */
final class BundlePinLookup {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TTL = Duration.ofMinutes(1);
  private static final int MAX = 1024;
  private static final int MAX_BODY = 64 * 1024;

  /** A digest, or (digest null) the status to report meanwhile. */
  record Pin(String digest, BundleContent waiting) {}

  private final URI base;
  private final HttpClient http;
  // image to digest, each kept for TTL
  private final Cache<String, String> cache =
      Caffeine.newBuilder().maximumSize(MAX).expireAfterWrite(TTL).executor(Runnable::run).build();

  BundlePinLookup(URI base, HttpClient http) {
    this.base = base;
    this.http = http;
  }

  Pin pin(String image, String credential) {
    String cached = cache.getIfPresent(image);
    if (cached != null) {
      return new Pin(cached, null);
    }
    try {
      HttpRequest request =
          HttpRequest.newBuilder(
                  base.resolve(
                      "/api/v1/agent/bundle-pins?image="
                          + URLEncoder.encode(image, StandardCharsets.UTF_8)))
              .header("Authorization", "Bearer " + credential)
              .timeout(Duration.ofSeconds(30))
              .GET()
              .build();
      HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
      byte[] body = response.body();
      JsonNode doc =
          body.length == 0 || body.length > MAX_BODY
              ? JSON.createObjectNode()
              : JSON.readTree(body);
      if (response.statusCode() == 200
          && doc.path("digest").asText("").matches("sha256:[a-f0-9]{64}")) {
        String digest = doc.path("digest").asText();
        cache.put(image, digest);
        return new Pin(digest, null);
      }
      String detail =
          doc.path("detail").asText("control plane answered HTTP " + response.statusCode());
      if (response.statusCode() == 409 && "Failed".equals(doc.path("state").asText())) {
        return new Pin(null, BundleContent.failed("bundle image " + image + ": " + detail));
      }
      return new Pin(
          null,
          BundleContent.unpacking("bundle image " + image + " is not resolved yet: " + detail));
    } catch (IOException e) {
      return new Pin(
          null,
          BundleContent.unpacking("bundle image " + image + " not resolved: " + e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Pin(null, BundleContent.unpacking("interrupted"));
    }
  }
}
