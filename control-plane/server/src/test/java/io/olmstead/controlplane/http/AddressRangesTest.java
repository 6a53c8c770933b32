package io.olmstead.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class AddressRangesTest {

  @Test
  void readsEveryIpv4FormInetAtonAcceptsWithoutALookup() throws Exception {
    assertThat(AddressRanges.literal("2130706433")).contains(InetAddress.getByName("127.0.0.1"));
    assertThat(AddressRanges.literal("127.1")).contains(InetAddress.getByName("127.0.0.1"));
    assertThat(AddressRanges.literal("10.1.258")).contains(InetAddress.getByName("10.1.1.2"));
    assertThat(AddressRanges.literal("0x7f.1")).contains(InetAddress.getByName("127.0.0.1"));
    assertThat(AddressRanges.literal("0177.0.0.01")).contains(InetAddress.getByName("127.0.0.1"));
    assertThat(AddressRanges.literal("169.254.169.254"))
        .contains(InetAddress.getByName("169.254.169.254"));
    assertThat(AddressRanges.literal("[::1]")).contains(InetAddress.getByName("::1"));
    assertThat(AddressRanges.literal("[fe80::1%eth0]")).contains(InetAddress.getByName("fe80::1"));
  }

  @Test
  void namesAndOutOfRangeNumbersAreNotLiterals() {
    for (String host :
        new String[] {
          "quay.io",
          "1.2.3.4.5",
          "256.1.1.1",
          "4294967296",
          "1.16777216",
          "registry",
          "99999999999",
          "1.2.3.4x",
          "08.1.1.1"
        }) {
      assertThat(AddressRanges.literal(host)).as(host).isEmpty();
    }
  }

  @Test
  void localIsLoopbackLinkLocalUnspecifiedAndMulticastAlsoWhenEmbeddedInIpv6() throws Exception {
    for (String a :
        new String[] {
          "127.0.0.1",
          "::1",
          "169.254.169.254",
          "0.0.0.0",
          "224.0.0.1",
          "fe80::1",
          "::127.0.0.1",
          "64:ff9b::a9fe:a9fe"
        }) {
      assertThat(AddressRanges.isLocal(InetAddress.getByName(a))).as(a).isTrue();
    }
    for (String a : new String[] {"10.0.0.1", "192.168.1.1", "8.8.8.8", "fd00::1"}) {
      assertThat(AddressRanges.isLocal(InetAddress.getByName(a))).as(a).isFalse();
    }
  }

  @Test
  void privateAddsPrivateSharedAndReservedRangesButNotPublicOnes() throws Exception {
    for (String a :
        new String[] {
          "127.0.0.1",
          "10.0.0.1",
          "172.16.0.1",
          "192.168.1.1",
          "fd00::1",
          "100.64.0.1",
          "0.1.2.3",
          "255.255.255.255",
          "240.0.0.1",
          "2002:c0a8:101::"
        }) {
      assertThat(AddressRanges.isPrivate(InetAddress.getByName(a))).as(a).isTrue();
    }
    for (String a : new String[] {"8.8.8.8", "1.1.1.1", "2001:4860:4860::8888", "100.128.0.1"}) {
      assertThat(AddressRanges.isPrivate(InetAddress.getByName(a))).as(a).isFalse();
    }
  }

  @Test
  void localhostAndItsSubdomainsAreLocalhostNames() {
    assertThat(AddressRanges.isLocalhostName("LOCALHOST")).isTrue();
    assertThat(AddressRanges.isLocalhostName("api.localhost")).isTrue();
    assertThat(AddressRanges.isLocalhostName("localhost.example")).isFalse();
  }
}
