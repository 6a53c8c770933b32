package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.registry.RegistryException.Kind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bearer-token flow against distribution's {@code auth: token}, with a token server run by the
 * test: jib asks the realm the registry names for a token, sending the auth file's credentials, and
 * pulls with it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BearerTokenAuthIT {
  static final String PASSWORD = "token-secret-4711";
  static TestTokenServer tokens;
  static TestRegistry registry;
  static String digest;
  static byte[] layer =
      CatalogFixtures.tarGz(
          Map.of("manifests/t.yaml", "kind: Secret\n".getBytes(StandardCharsets.UTF_8)));

  @TempDir Path tmp;

  @BeforeAll
  static void start() throws Exception {
    tokens =
        TestTokenServer.start(Files.createTempDirectory("olmstead-token"), "olmstead", PASSWORD);
    registry = TestRegistry.startWithTokenAuth(tokens.realm(), tokens.certificate());
    digest =
        registry
            .pusher("Bearer " + tokens.token("private/token", "pull,push"))
            .image("private/token", "v1", ImagePusher.OCI_MANIFEST, Map.of(), List.of(layer));
  }

  @AfterAll
  static void stop() {
    if (registry != null) {
      registry.close();
    }
    if (tokens != null) {
      tokens.close();
    }
  }

  RegistrySettings settings() {
    return RegistrySettings.defaults(registry.host(), tokens.host());
  }

  @Test
  void pullsWithABearerTokenObtainedWithTheAuthFilesCredentials() throws Exception {
    int before = tokens.authenticated();
    try (OciPuller p =
        new OciPuller(settings().withAuthFile(registry.writeAuthFile("olmstead", PASSWORD)))) {
      ImageManifest image = p.resolve(registry.host() + "/private/token:v1");
      assertThat(image.digest()).isEqualTo(digest);
      p.fetchBlob(image, image.layers().get(0), 1 << 20, tmp.resolve("l"));
      assertThat(Files.readAllBytes(tmp.resolve("l"))).isEqualTo(layer);
    }
    assertThat(tokens.authenticated()).isGreaterThan(before);
  }

  @Test
  void withoutCredentialsTheTokenGrantsNothingAndThePullIsDenied() {
    try (OciPuller p = new OciPuller(settings())) {
      assertThatThrownBy(() -> p.resolve(registry.host() + "/private/token:v1"))
          .isInstanceOfSatisfying(
              RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.DENIED))
          .hasMessageContaining(registry.host());
    }
  }

  @Test
  void aWrongPasswordIsDeniedByTheTokenServerWithoutQuotingIt() {
    try (OciPuller p =
        new OciPuller(
            settings().withAuthFile(registry.writeAuthFile("olmstead", "wrong-pass-0815")))) {
      assertThatThrownBy(() -> p.resolve(registry.host() + "/private/token:v1"))
          .isInstanceOfSatisfying(
              RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.DENIED))
          .hasMessageContaining(registry.host())
          .hasMessageNotContaining("wrong-pass-0815");
    }
  }

  @Test
  void credentialsAreNotSentToAPlainHttpRealmWhoseHostIsNotListedAsInsecure() {
    int before = tokens.credentialed();
    RegistrySettings realmNotInsecure =
        RegistrySettings.defaults(registry.host())
            .withAllowLocal(tokens.host())
            .withAuthFile(registry.writeAuthFile("olmstead", PASSWORD));
    try (OciPuller p = new OciPuller(realmNotInsecure)) {
      assertThatThrownBy(() -> p.resolve(registry.host() + "/private/token:v1"))
          .isInstanceOfSatisfying(
              RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.DENIED))
          .hasMessageContaining("http://" + tokens.host())
          .hasMessageContaining(RegistrySettings.INSECURE)
          .hasMessageNotContaining(PASSWORD);
    }
    assertThat(tokens.credentialed()).as("token requests with credentials").isEqualTo(before);
  }
}
