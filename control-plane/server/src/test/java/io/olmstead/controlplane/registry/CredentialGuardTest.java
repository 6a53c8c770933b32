package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class CredentialGuardTest {
  static final Set<String> INSECURE = Set.of("lab.example:5000", "auth.lab.example");

  @Test
  void credentialsGoToAnyRealmOverVerifiedHttps() {
    assertThat(CredentialGuard.allowed(INSECURE, true, "https", "auth.docker.io")).isTrue();
  }

  @Test
  void credentialsGoOverPlainHttpOnlyToAHostListedAsInsecure() {
    assertThat(CredentialGuard.allowed(INSECURE, true, "http", "auth.lab.example")).isTrue();
    assertThat(CredentialGuard.allowed(INSECURE, true, "http", "lab.example:5000")).isTrue();
    assertThat(CredentialGuard.allowed(INSECURE, true, "http", "evil.example")).isFalse();
    assertThat(CredentialGuard.allowed(INSECURE, true, "http", "lab.example:5001")).isFalse();
  }

  @Test
  void credentialsGoOverUnverifiedTlsOnlyToAHostListedAsInsecure() {
    assertThat(CredentialGuard.allowed(INSECURE, false, "https", "lab.example:5000")).isTrue();
    assertThat(CredentialGuard.allowed(INSECURE, false, "https", "auth.docker.io")).isFalse();
  }
}
