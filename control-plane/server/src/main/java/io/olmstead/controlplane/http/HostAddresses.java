package io.olmstead.controlplane.http;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Locale;
import java.util.Optional;

/**
 * How an address is written in logs, audit rows, problem details and per-source keys, in one place:
 * an IPv4-mapped IPv6 address ({@code ::ffff:1.2.3.4}) as the IPv4 address it is, other IPv6
 * addresses in their short form ({@code 2001:db8::1}), bracketed exactly once when a port follows
 * ({@code [2001:db8::1]:443}); names as given.
 */
public final class HostAddresses {
  private HostAddresses() {}

  /**
   * The host alone: brackets removed, IPv4-mapped addresses as IPv4, IPv6 shortened; a name
   * unchanged.
   */
  public static String host(String host) {
    if (host == null || host.indexOf(':') < 0) {
      return host;
    }
    Optional<InetAddress> literal = AddressRanges.literal(host);
    if (literal.isEmpty()) {
      return host;
    }
    // Java parses ::ffff:a.b.c.d as the IPv4 address itself
    return literal.get() instanceof Inet6Address v6
        ? shortIpv6(v6)
        : literal.get().getHostAddress();
  }

  /** {@code host:port}, an IPv6 host bracketed once whether or not it came bracketed. */
  public static String hostPort(String host, int port) {
    String h = host(host);
    return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + port;
  }

  /** The request's source address as {@link #host} writes it ({@code unknown} without one). */
  public static String source(HttpServerRequest request) {
    SocketAddress remote = request.remoteAddress();
    return remote == null || remote.hostAddress() == null ? "unknown" : host(remote.hostAddress());
  }

  /**
   * RFC 5952: lower case, leading zeros dropped, the longest run of two or more zero groups as
   * {@code ::}.
   */
  static String shortIpv6(Inet6Address address) {
    byte[] b = address.getAddress();
    int[] groups = new int[8];
    for (int i = 0; i < 8; i++) {
      groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
    }
    int bestStart = -1;
    int bestLength = 1;
    for (int i = 0; i < 8; i++) {
      int j = i;
      while (j < 8 && groups[j] == 0) {
        j++;
      }
      if (j - i > bestLength) {
        bestStart = i;
        bestLength = j - i;
      }
      i = Math.max(i, j);
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        out.append("::");
        i += bestLength - 1;
        continue;
      }
      if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
        out.append(':');
      }
      out.append(Integer.toHexString(groups[i]));
    }
    return out.toString().toLowerCase(Locale.ROOT);
  }
}
