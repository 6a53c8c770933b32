package io.olmstead.controlplane.catalog;

import io.olmstead.controlplane.testsupport.SharedFolder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * Small inline catalogs, the shared real catalogs when present, and a tar.gz writer for directory
 * uploads.
 */
public final class CatalogFixtures {
  private CatalogFixtures() {}

  /**
   * etcd with channel stable 0.9.0 -> 0.9.2 -> 0.9.4 (skipRange >=0.9.0 <0.9.4) and channel fast
   * with 1.0.0.
   */
  public static String etcdNdjson() {
    return String.join(
        "\n",
        "{\"schema\":\"olm.package\",\"name\":\"etcd\",\"defaultChannel\":\"stable\"}",
        "{\"schema\":\"olm.channel\",\"package\":\"etcd\",\"name\":\"stable\",\"entries\":["
            + "{\"name\":\"etcd.v0.9.0\"},{\"name\":\"etcd.v0.9.2\",\"replaces\":\"etcd.v0.9.0\"},"
            + "{\"name\":\"etcd.v0.9.4\",\"replaces\":\"etcd.v0.9.2\",\"skipRange\":\">=0.9.0 <0.9.4\"}]}",
        "{\"schema\":\"olm.channel\",\"package\":\"etcd\",\"name\":\"fast\",\"entries\":["
            + "{\"name\":\"etcd.v0.9.4\"},{\"name\":\"etcd.v1.0.0\",\"replaces\":\"etcd.v0.9.4\"}]}",
        bundle("etcd", "0.9.0"),
        bundle("etcd", "0.9.2"),
        bundle("etcd", "0.9.4"),
        bundle("etcd", "1.0.0"),
        "");
  }

  /** A second package, for catalogs with more than one. */
  public static String redisNdjson() {
    return String.join(
        "\n",
        "{\"schema\":\"olm.package\",\"name\":\"redis\",\"defaultChannel\":\"alpha\"}",
        "{\"schema\":\"olm.channel\",\"package\":\"redis\",\"name\":\"alpha\",\"entries\":[{\"name\":\"redis.v1.2.3\"}]}",
        bundle("redis", "1.2.3"),
        "");
  }

  public static String etcdYaml() {
    return """
        schema: olm.package
        name: etcd
        defaultChannel: stable
        ---
        schema: olm.channel
        package: etcd
        name: stable
        entries:
          - name: etcd.v0.9.0
          - name: etcd.v0.9.2
            replaces: etcd.v0.9.0
        ---
        schema: olm.bundle
        package: etcd
        name: etcd.v0.9.0
        image: quay.io/example/etcd:0.9.0
        properties:
          - type: olm.package
            value: {packageName: etcd, version: 0.9.0}
        ---
        schema: olm.bundle
        package: etcd
        name: etcd.v0.9.2
        image: quay.io/example/etcd:0.9.2
        properties:
          - type: olm.package
            value: {packageName: etcd, version: 0.9.2}
        """;
  }

  /**
   * Two independent errors: a channel entry without a bundle, and a package whose default channel
   * does not exist.
   */
  public static String invalidNdjson() {
    return String.join(
        "\n",
        "{\"schema\":\"olm.package\",\"name\":\"etcd\",\"defaultChannel\":\"stable\"}",
        "{\"schema\":\"olm.channel\",\"package\":\"etcd\",\"name\":\"stable\",\"entries\":[{\"name\":\"etcd.v0.9.0\"},"
            + "{\"name\":\"etcd.v0.9.9\",\"replaces\":\"etcd.v0.9.0\"}]}",
        bundle("etcd", "0.9.0"),
        "{\"schema\":\"olm.package\",\"name\":\"redis\",\"defaultChannel\":\"missing\"}",
        "{\"schema\":\"olm.channel\",\"package\":\"redis\",\"name\":\"alpha\",\"entries\":[{\"name\":\"redis.v1.2.3\"}]}",
        bundle("redis", "1.2.3"),
        "");
  }

  /**
   * Package etcdoperator, one bundle etcdoperator.v0.9.4 carrying its CSV as an {@code
   * olm.bundle.object}, with three validating webhooks on deployment etcd-operator; the third names
   * {@code thirdDeployment}.
   */
  public static String webhookNdjson(String thirdDeployment) {
    StringBuilder hooks = new StringBuilder();
    String[] deployments = {"etcd-operator", "etcd-operator", thirdDeployment};
    for (int i = 0; i < deployments.length; i++) {
      hooks
          .append(i == 0 ? "" : ",")
          .append("{\"type\":\"ValidatingAdmissionWebhook\",\"generateName\":\"v")
          .append(i)
          .append(".etcd.database.coreos.com\",\"deploymentName\":\"")
          .append(deployments[i])
          .append(
              "\",\"containerPort\":443,\"admissionReviewVersions\":[\"v1\"],\"sideEffects\":\"None\"}");
    }
    String csv =
        "{\"apiVersion\":\"operators.coreos.com/v1alpha1\",\"kind\":\"ClusterServiceVersion\","
            + "\"metadata\":{\"name\":\"etcdoperator.v0.9.4\"},\"spec\":{\"installModes\":[{\"type\":\"AllNamespaces\","
            + "\"supported\":true}],\"webhookdefinitions\":["
            + hooks
            + "],\"install\":{\"strategy\":\"deployment\","
            + "\"spec\":{\"deployments\":[{\"name\":\"etcd-operator\",\"spec\":{\"selector\":{\"matchLabels\":"
            + "{\"name\":\"etcd-operator\"}},\"template\":{\"metadata\":{\"labels\":{\"name\":\"etcd-operator\"}},"
            + "\"spec\":{\"containers\":[{\"name\":\"etcd-operator\",\"image\":\"quay.io/coreos/etcd-operator\"}]}}}}]}}}}";
    String data = Base64.getEncoder().encodeToString(csv.getBytes(StandardCharsets.UTF_8));
    return String.join(
        "\n",
        "{\"schema\":\"olm.package\",\"name\":\"etcdoperator\",\"defaultChannel\":\"stable\"}",
        "{\"schema\":\"olm.channel\",\"package\":\"etcdoperator\",\"name\":\"stable\",\"entries\":["
            + "{\"name\":\"etcdoperator.v0.9.4\"}]}",
        "{\"schema\":\"olm.bundle\",\"package\":\"etcdoperator\",\"name\":\"etcdoperator.v0.9.4\","
            + "\"image\":\"quay.io/example/etcdoperator:0.9.4\",\"properties\":[{\"type\":\"olm.package\","
            + "\"value\":{\"packageName\":\"etcdoperator\",\"version\":\"0.9.4\"}},"
            + "{\"type\":\"olm.bundle.object\",\"value\":{\"data\":\""
            + data
            + "\"}}]}",
        "");
  }

  static String bundle(String pkg, String version) {
    return "{\"schema\":\"olm.bundle\",\"package\":\""
        + pkg
        + "\",\"name\":\""
        + pkg
        + ".v"
        + version
        + "\",\"image\":\"quay.io/example/"
        + pkg
        + ":"
        + version
        + "\",\"properties\":[{\"type\":\"olm.package\","
        + "\"value\":{\"packageName\":\""
        + pkg
        + "\",\"version\":\""
        + version
        + "\"}}]}";
  }

  /** The shared catalogs directory ({@link SharedFolder}), when present. */
  public static Optional<Path> sharedCatalogs() {
    return SharedFolder.find("catalogs");
  }

  /**
   * A gzip-compressed ustar archive of every regular file under {@code dir}, paths relative to it.
   */
  public static byte[] tarGz(Path dir) {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (Files.isRegularFile(p)) {
          files.put(dir.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tarGz(files);
  }

  public static byte[] tarGz(Map<String, byte[]> files) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      for (Map.Entry<String, byte[]> file : files.entrySet()) {
        gz.write(header(file.getKey(), file.getValue().length));
        gz.write(file.getValue());
        int pad = (512 - file.getValue().length % 512) % 512;
        gz.write(new byte[pad]);
      }
      gz.write(new byte[1024]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static byte[] header(String name, long size) {
    byte[] h = new byte[512];
    put(h, 0, name, 100);
    put(h, 100, "0000644", 8);
    put(h, 108, "0000000", 8);
    put(h, 116, "0000000", 8);
    put(h, 124, String.format("%011o", size), 12);
    put(h, 136, String.format("%011o", 0L), 12);
    for (int i = 148; i < 156; i++) {
      h[i] = ' ';
    }
    h[156] = '0';
    put(h, 257, "ustar", 6);
    put(h, 263, "00", 2);
    long sum = 0;
    for (byte b : h) {
      sum += b & 0xff;
    }
    put(h, 148, String.format("%06o", sum), 7);
    h[155] = ' ';
    return h;
  }

  private static void put(byte[] h, int offset, String value, int length) {
    byte[] v = value.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(v, 0, h, offset, Math.min(v.length, length));
  }
}
