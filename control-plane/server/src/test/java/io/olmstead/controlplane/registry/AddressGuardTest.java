package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.config.RegistrySettings;
import org.junit.jupiter.api.Test;

class AddressGuardTest {
  static final RegistrySettings NONE = RegistrySettings.defaults();

  @Test
  void refusesLoopbackLinkLocalAndMetadataRegistries() {
    for (String registry :
        new String[] {
          "127.0.0.1:5000",
          "127.1.2.3",
          "169.254.169.254",
          "169.254.169.254:80",
          "[::1]:5000",
          "localhost:5000",
          "localhost",
          "registry.localhost",
          "metadata.google.internal",
          "0.0.0.0:80",
          "[fe80::1]:5000",
          "[fd00:ec2::254]",
          "100.100.100.200",
          "2130706433:5000",
          "127.1:5000",
          "0x7f.1"
        }) {
      assertThat(AddressGuard.literalProblem(registry, NONE))
          .as(registry)
          .hasValueSatisfying(
              m -> assertThat(m).contains(registry).contains(RegistrySettings.ALLOW_LOCAL));
    }
  }

  @Test
  void refusesIpv6AddressesThatCarryALoopbackOrMetadataIpv4Address() throws Exception {
    for (String literal :
        new String[] {"::127.0.0.1", "::ffff:0:127.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::"}) {
      assertThat(AddressGuard.local(java.net.InetAddress.getByName(literal))).as(literal).isTrue();
    }
    assertThat(AddressGuard.local(java.net.InetAddress.getByName("2001:4860:4860::8888")))
        .isFalse();
  }

  @Test
  void allowsPublicAndPrivateNetworkRegistries() {
    for (String registry :
        new String[] {
          "quay.io",
          "registry.example:5000",
          "10.0.0.5:5000",
          "192.168.1.10",
          "172.16.0.1:443",
          "[2001:db8::1]:5000"
        }) {
      assertThat(AddressGuard.literalProblem(registry, NONE)).as(registry).isEmpty();
    }
  }

  @Test
  void allowsALocalRegistryListedByHostAndPortOrAsInsecure() {
    assertThat(AddressGuard.literalProblem("127.0.0.1:5000", NONE.withAllowLocal("127.0.0.1:5000")))
        .isEmpty();
    assertThat(AddressGuard.literalProblem("127.0.0.1:5001", NONE.withAllowLocal("127.0.0.1:5000")))
        .isPresent();
    assertThat(
            AddressGuard.literalProblem(
                "127.0.0.1:5000", RegistrySettings.defaults("127.0.0.1:5000")))
        .isEmpty();
  }

  @Test
  void theHostOfARegistryDropsItsPortAndBrackets() {
    assertThat(AddressGuard.hostOf("quay.io")).isEqualTo("quay.io");
    assertThat(AddressGuard.hostOf("127.0.0.1:5000")).isEqualTo("127.0.0.1");
    assertThat(AddressGuard.hostOf("[::1]:5000")).isEqualTo("::1");
    assertThat(AddressGuard.hostOf("[fe80::1]")).isEqualTo("fe80::1");
  }
}
