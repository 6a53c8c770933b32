package io.olmstead.controlplane.registry;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Pushes blobs and manifests through the distribution API (tests build images by hand, byte for
 * byte).
 */
public final class ImagePusher {

  public static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
  public static final String OCI_INDEX = "application/vnd.oci.image.index.v1+json";
  public static final String DOCKER_MANIFEST =
      "application/vnd.docker.distribution.manifest.v2+json";
  public static final String OCI_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip";
  public static final String DOCKER_LAYER = "application/vnd.docker.image.rootfs.diff.tar.gzip";

  private final String base;
  private final String authorization;
  private final HttpClient http = HttpClient.newHttpClient();

  ImagePusher(String base, String user, String password) {
    this(
        base,
        user == null
            ? null
            : "Basic "
                + Base64.getEncoder()
                    .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
  }

  ImagePusher(String base, String authorization) {
    this.base = base;
    this.authorization = authorization;
  }

  public static String digest(byte[] content) {
    try {
      return "sha256:"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Uploads a blob (monolithic) and returns its digest. */
  public String blob(String repository, byte[] content) {
    String digest = digest(content);
    HttpResponse<String> start =
        send(
            request(base + "/v2/" + repository + "/blobs/uploads/")
                .POST(HttpRequest.BodyPublishers.noBody()));
    String location = start.headers().firstValue("Location").orElseThrow();
    URI upload = URI.create(base).resolve(location);
    String sep = upload.getQuery() == null ? "?" : "&";
    send(
        request(upload + sep + "digest=" + digest)
            .header("Content-Type", "application/octet-stream")
            .PUT(HttpRequest.BodyPublishers.ofByteArray(content)));
    return digest;
  }

  /** Puts a manifest (any media type) under a tag or digest and returns its digest. */
  public String manifest(String repository, String reference, String mediaType, byte[] manifest) {
    send(
        request(base + "/v2/" + repository + "/manifests/" + reference)
            .header("Content-Type", mediaType)
            .PUT(HttpRequest.BodyPublishers.ofByteArray(manifest)));
    return digest(manifest);
  }

  /** Pushes an image with the given config and gzip layers; returns the manifest digest. */
  public String image(
      String repository,
      String tag,
      String mediaType,
      Map<String, String> labels,
      List<byte[]> layers) {
    StringBuilder labelJson = new StringBuilder();
    labels.forEach(
        (k, v) ->
            labelJson
                .append(labelJson.length() == 0 ? "" : ",")
                .append('"')
                .append(k)
                .append("\":\"")
                .append(v)
                .append('"'));
    byte[] config =
        ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"config\":{\"Labels\":{"
                + labelJson
                + "}},\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[]}}")
            .getBytes(StandardCharsets.UTF_8);
    String configType =
        mediaType.equals(DOCKER_MANIFEST)
            ? "application/vnd.docker.container.image.v1+json"
            : "application/vnd.oci.image.config.v1+json";
    String layerType = mediaType.equals(DOCKER_MANIFEST) ? DOCKER_LAYER : OCI_LAYER;
    StringBuilder layerJson = new StringBuilder();
    for (byte[] layer : layers) {
      layerJson
          .append(layerJson.length() == 0 ? "" : ",")
          .append(descriptor(layerType, blob(repository, layer), layer.length));
    }
    String manifest =
        "{\"schemaVersion\":2,\"mediaType\":\""
            + mediaType
            + "\",\"config\":"
            + descriptor(configType, blob(repository, config), config.length)
            + ",\"layers\":["
            + layerJson
            + "]}";
    return this.manifest(repository, tag, mediaType, manifest.getBytes(StandardCharsets.UTF_8));
  }

  public static String descriptor(String mediaType, String digest, long size) {
    return "{\"mediaType\":\""
        + mediaType
        + "\",\"digest\":\""
        + digest
        + "\",\"size\":"
        + size
        + "}";
  }

  private HttpRequest.Builder request(String uri) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(uri));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return b;
  }

  private HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() >= 300) {
        throw new IllegalStateException("registry answered " + r.statusCode() + ": " + r.body());
      }
      return r;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
