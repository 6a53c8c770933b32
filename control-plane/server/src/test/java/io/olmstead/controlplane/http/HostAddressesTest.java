package io.olmstead.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostAddressesTest {

  @Test
  void anIpv4MappedAddressIsWrittenAsTheIpv4AddressWithOrWithoutBrackets() {
    assertThat(HostAddresses.host("::ffff:1.2.3.4")).isEqualTo("1.2.3.4");
    assertThat(HostAddresses.host("[::ffff:1.2.3.4]")).isEqualTo("1.2.3.4");
    assertThat(HostAddresses.host("0:0:0:0:0:ffff:102:304")).isEqualTo("1.2.3.4");
    assertThat(HostAddresses.hostPort("[::ffff:1.2.3.4]", 443)).isEqualTo("1.2.3.4:443");
  }

  @Test
  void anIpv6AddressIsShortenedAndBracketedExactlyOnceBeforeAPort() {
    assertThat(HostAddresses.host("0:0:0:0:0:0:0:1")).isEqualTo("::1");
    assertThat(HostAddresses.host("[2001:DB8:0:0:1:0:0:1]")).isEqualTo("2001:db8::1:0:0:1");
    assertThat(HostAddresses.host("2001:db8:0:1:1:1:1:1")).isEqualTo("2001:db8:0:1:1:1:1:1");
    assertThat(HostAddresses.host("fe80:0:0:0:0:0:0:0")).isEqualTo("fe80::");
    assertThat(HostAddresses.hostPort("[::1]", 5000)).isEqualTo("[::1]:5000");
    assertThat(HostAddresses.hostPort("::1", 5000)).isEqualTo("[::1]:5000");
  }

  @Test
  void namesAndIpv4AddressesAreLeftAsGiven() {
    assertThat(HostAddresses.host("registry.example.com")).isEqualTo("registry.example.com");
    assertThat(HostAddresses.host("10.0.0.1")).isEqualTo("10.0.0.1");
    assertThat(HostAddresses.hostPort("registry.example.com", 443))
        .isEqualTo("registry.example.com:443");
    assertThat(HostAddresses.host(null)).isNull();
  }
}
