package io.olmstead.controlplane.registry;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bearer-token server for distribution's {@code auth: token} on 127.0.0.1: an RSA key and
 * self-signed certificate made by {@code openssl}; {@code GET /token?service=&scope=} with the
 * right basic credentials answers an RS256 JWT (certificate in {@code x5c}) granting the requested
 * repository actions, without credentials a token granting nothing, with wrong ones 401.
 */
final class TestTokenServer implements AutoCloseable {
  private final HttpServer server;
  private final PrivateKey key;
  private final String certificateDer;
  private final Path certificate;
  private final String user;
  private final String password;
  private final AtomicInteger authenticated = new AtomicInteger();
  private final AtomicInteger credentialed = new AtomicInteger();

  private TestTokenServer(Path dir, String user, String password) throws Exception {
    this.user = user;
    this.password = password;
    this.certificate = dir.resolve("token.crt");
    Process p =
        new ProcessBuilder(
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "1",
                "-subj",
                "/CN=olmstead-test-token",
                "-keyout",
                dir.resolve("token.key").toString(),
                "-out",
                certificate.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("openssl failed: " + out);
    }
    this.key =
        KeyFactory.getInstance("RSA")
            .generatePrivate(new PKCS8EncodedKeySpec(pem(dir.resolve("token.key"))));
    this.certificateDer = Base64.getEncoder().encodeToString(pem(certificate));
    this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/token", this::token);
    server.start();
  }

  static TestTokenServer start(Path dir, String user, String password) {
    assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/openssl")),
        "openssl is not installed: the token server needs " + "it for its certificate");
    try {
      return new TestTokenServer(dir, user, password);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  String host() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  String realm() {
    return "http://" + host() + "/token";
  }

  Path certificate() {
    return certificate;
  }

  /** How many tokens were issued to the right credentials. */
  int authenticated() {
    return authenticated.get();
  }

  /** How many token requests carried an {@code Authorization} header, right or wrong. */
  int credentialed() {
    return credentialed.get();
  }

  /** A token granting {@code actions} on {@code repository} (for the test's own pushes). */
  String token(String repository, String actions) {
    return jwt(
        new JsonArray()
            .add(
                new JsonObject()
                    .put("type", "repository")
                    .put("name", repository)
                    .put("actions", new JsonArray(java.util.List.of(actions.split(","))))));
  }

  private void token(HttpExchange exchange) throws IOException {
    String basic = exchange.getRequestHeaders().getFirst("Authorization");
    JsonArray access = new JsonArray();
    if (basic != null) {
      credentialed.incrementAndGet();
      String expected =
          "Basic "
              + Base64.getEncoder()
                  .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
      if (!basic.equals(expected)) {
        exchange.sendResponseHeaders(401, -1);
        exchange.close();
        return;
      }
      authenticated.incrementAndGet();
      String scope = query(exchange).getOrDefault("scope", "");
      String[] parts = scope.split(":");
      if (parts.length == 3 && parts[0].equals("repository")) {
        access.add(
            new JsonObject()
                .put("type", "repository")
                .put("name", parts[1])
                .put("actions", new JsonArray(java.util.List.of(parts[2].split(",")))));
      }
    }
    byte[] body =
        new JsonObject()
            .put("token", jwt(access))
            .put("expires_in", 300)
            .encode()
            .getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }

  private String jwt(JsonArray access) {
    long now = System.currentTimeMillis() / 1000;
    JsonObject header =
        new JsonObject()
            .put("typ", "JWT")
            .put("alg", "RS256")
            .put("x5c", new JsonArray().add(certificateDer));
    JsonObject claims =
        new JsonObject()
            .put("iss", "olmstead-test-issuer")
            .put("sub", user)
            .put("aud", "olmstead-test")
            .put("exp", now + 300)
            .put("nbf", now - 10)
            .put("iat", now)
            .put("jti", UUID.randomUUID().toString())
            .put("access", access);
    String signed = b64(header.encode()) + "." + b64(claims.encode());
    try {
      Signature rs256 = Signature.getInstance("SHA256withRSA");
      rs256.initSign(key);
      rs256.update(signed.getBytes(StandardCharsets.US_ASCII));
      return signed + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(rs256.sign());
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String b64(String json) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  private static Map<String, String> query(HttpExchange exchange) {
    Map<String, String> out = new java.util.HashMap<>();
    String q = exchange.getRequestURI().getRawQuery();
    if (q != null) {
      for (String kv : q.split("&")) {
        int eq = kv.indexOf('=');
        if (eq > 0) {
          out.put(
              URLDecoder.decode(kv.substring(0, eq), StandardCharsets.UTF_8),
              URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return out;
  }

  private static byte[] pem(Path file) {
    try {
      String text = Files.readString(file);
      String body = text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
      return Base64.getDecoder().decode(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
