package io.olmstead.controlplane.registry;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.mindrot.jbcrypt.BCrypt;

/**
 * A real OCI registry for tests: Debian's {@code docker-registry} (distribution v2) on 127.0.0.1, a
 * free port and a temporary storage directory, optionally with htpasswd basic auth. Tests skip,
 * saying so, when it is not installed.
 */
public final class TestRegistry implements AutoCloseable {

  public static final Path BINARY = Path.of("/usr/bin/docker-registry");

  private Process process;
  private final Path dir;
  private final int port;
  private final String user;
  private final String password;

  private TestRegistry(Process process, Path dir, int port, String user, String password) {
    this.process = process;
    this.dir = dir;
    this.port = port;
    this.user = user;
    this.password = password;
  }

  /**
   * Skips the calling test when docker-registry is absent (install the Debian package
   * docker-registry).
   */
  public static void assumeInstalled() {
    assumeTrue(
        Files.isExecutable(BINARY),
        "docker-registry is not installed (apt-get install docker-registry): "
            + "the registry tests need a real registry");
  }

  public static TestRegistry start() {
    return start(null, null);
  }

  /** Starts a registry; with a user, every request needs basic auth with that user and password. */
  public static TestRegistry start(String user, String password) {
    return start(
        dir -> {
          if (user == null) {
            return "";
          }
          Files.writeString(
              dir.resolve("htpasswd"),
              user + ":" + BCrypt.hashpw(password, BCrypt.gensalt(4)) + "\n");
          return "auth:\n  htpasswd:\n    realm: olmstead-test\n    path: "
              + dir.resolve("htpasswd")
              + "\n";
        },
        user,
        password);
  }

  /**
   * Starts a registry with distribution's {@code auth: token}: every request needs a bearer token
   * issued by {@code realm} for service {@code olmstead-test} and issuer {@code
   * olmstead-test-issuer}, signed by the key of the certificate {@code rootCert}.
   */
  public static TestRegistry startWithTokenAuth(String realm, Path rootCert) {
    return start(
        dir ->
            "auth:\n  token:\n    realm: "
                + realm
                + "\n    service: olmstead-test\n"
                + "    issuer: olmstead-test-issuer\n    rootcertbundle: "
                + rootCert
                + "\n",
        null,
        null);
  }

  private interface AuthConfig {
    String yaml(Path dir) throws IOException;
  }

  private static TestRegistry start(AuthConfig authConfig, String user, String password) {
    assumeInstalled();
    try {
      Path dir = Files.createTempDirectory("olmstead-registry");
      int port = freePort();
      String auth = authConfig.yaml(dir);
      Files.writeString(
          dir.resolve("config.yml"),
          "version: 0.1\nlog:\n  level: error\n"
              + "storage:\n  filesystem:\n    rootdirectory: "
              + dir.resolve("storage")
              + "\n  delete:\n    enabled: true\n"
              + "http:\n  addr: 127.0.0.1:"
              + port
              + "\n  secret: olmstead-test\n"
              + auth);
      Process p =
          new ProcessBuilder(BINARY.toString(), "serve", dir.resolve("config.yml").toString())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("registry.log").toFile())
              .start();
      TestRegistry r = new TestRegistry(p, dir, port, user, password);
      r.awaitUp();
      return r;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** host:port, as an image reference's registry. */
  public String host() {
    return "127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /** The registry's log (access log lines name every request). */
  public Path log() {
    return dir.resolve("registry.log");
  }

  /** Where the registry keeps a blob's bytes (tests corrupt it to prove digests are checked). */
  public Path blobData(String digest) {
    String hex = digest.substring("sha256:".length());
    return dir.resolve(
        "storage/docker/registry/v2/blobs/sha256/" + hex.substring(0, 2) + "/" + hex + "/data");
  }

  /** A docker config.json / containers auth.json granting this registry's user. */
  public Path writeAuthFile(String user, String password) {
    String token =
        Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    Path file = dir.resolve("auth-" + System.nanoTime() + ".json");
    try {
      Files.writeString(file, "{\"auths\":{\"" + host() + "\":{\"auth\":\"" + token + "\"}}}");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  /** Stops the registry (connections are refused) keeping its storage, until {@link #restart()}. */
  public void stopServing() {
    close();
  }

  /** Serves again on the same port from the same storage (the log is appended to). */
  public void restart() {
    try {
      process =
          new ProcessBuilder(BINARY.toString(), "serve", dir.resolve("config.yml").toString())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    awaitUp();
  }

  public ImagePusher pusher() {
    return new ImagePusher("http://" + host(), user, password);
  }

  /** A pusher sending this {@code Authorization} header (a bearer token). */
  public ImagePusher pusher(String authorization) {
    return new ImagePusher("http://" + host(), authorization);
  }

  private void awaitUp() {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("docker-registry exited; see " + log());
      }
      try {
        http.send(
            HttpRequest.newBuilder(URI.create("http://" + host() + "/v2/")).build(),
            HttpResponse.BodyHandlers.discarding());
        return;
      } catch (IOException e) {
        sleep();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new IllegalStateException("docker-registry did not start within 20 s; see " + log());
  }

  private static void sleep() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process.destroyForcibly();
  }
}
