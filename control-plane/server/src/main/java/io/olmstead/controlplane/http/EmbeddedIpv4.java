package io.olmstead.controlplane.http;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * The IPv4 address an IPv6 address carries, if any: IPv4-compatible ({@code ::a.b.c.d}),
 * IPv4-translated ({@code ::ffff:0:a.b.c.d}), NAT64 ({@code 64:ff9b::/96}), 6to4 ({@code
 * 2002:AABB:CCDD::/48}) and Teredo ({@code 2001:0::/32}, the client address inverted). Checks for
 * loopback, link-local or private receivers must look at that address: Java's {@code
 * isLoopbackAddress()} says false for {@code ::127.0.0.1} while a connection to it reaches
 * 127.0.0.1. IPv4-mapped addresses ({@code ::ffff:a.b.c.d}) Java already turns into IPv4.
 */
public final class EmbeddedIpv4 {
  private EmbeddedIpv4() {}

  /** {@code address} itself, or the IPv4 address it embeds. */
  public static InetAddress effective(InetAddress address) {
    if (!(address instanceof Inet6Address)
        || address.isLoopbackAddress()
        || address.isAnyLocalAddress()) {
      return address; // IPv4, or ::1 and :: (which Java already classifies)
    }
    byte[] b = address.getAddress();
    byte[] v4 = null;
    if (allZero(b, 0, 12) && !allZero(b, 12, 16)) {
      v4 = Arrays.copyOfRange(b, 12, 16); // ::a.b.c.d (not :: nor ::1)
    } else if (allZero(b, 0, 8)
        && (b[8] & 0xff) == 0xff
        && (b[9] & 0xff) == 0xff
        && allZero(b, 10, 12)) {
      v4 = Arrays.copyOfRange(b, 12, 16); // ::ffff:0:a.b.c.d
    } else if (b[0] == 0 && b[1] == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b) {
      v4 = Arrays.copyOfRange(b, 12, 16); // 64:ff9b::/96 and 64:ff9b:1::/48
    } else if ((b[0] & 0xff) == 0x20 && b[1] == 0x02) {
      v4 = Arrays.copyOfRange(b, 2, 6); // 2002:AABB:CCDD::/48
    } else if ((b[0] & 0xff) == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0) {
      v4 = Arrays.copyOfRange(b, 12, 16); // Teredo: client address inverted
      for (int i = 0; i < 4; i++) {
        v4[i] = (byte) ~v4[i];
      }
    }
    if (v4 == null) {
      return address;
    }
    try {
      return Inet4Address.getByAddress(v4);
    } catch (UnknownHostException e) {
      return address;
    }
  }

  /** A host as written in a URL or reference, brackets and an IPv6 zone ({@code %eth0}) removed. */
  public static String literal(String host) {
    String h =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    int zone = h.indexOf('%');
    return zone >= 0 && h.contains(":") ? h.substring(0, zone) : h;
  }

  private static boolean allZero(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
