package io.olmstead.controlplane.webhooks;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Whether a receiver is inside the control plane's own network (loopback, link-local such as the cloud metadata
 * address, site-local/unique-local, the unspecified address). Webhooks may not point there unless allowed, so an API
 * user cannot make the control plane call its neighbours.
 */
final class PrivateAddresses {
  private PrivateAddresses() {
  }

  /** For a host as written in a URL: an IP literal or {@code localhost} (no DNS lookup). */
  static boolean isPrivateLiteral(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    if (h.equals("localhost") || h.endsWith(".localhost")) {
      return true;
    }
    h = io.olmstead.controlplane.http.EmbeddedIpv4.literal(h);
    // only literals are parsed (never a DNS lookup here): dotted or single-number IPv4, or IPv6 with a colon
    if (!(h.matches("[0-9.]+") || (h.contains(":") && h.matches("[0-9a-f:.]+")))) {
      return false;
    }
    try {
      return isPrivate(InetAddress.getByName(h));
    } catch (UnknownHostException e) {
      return false;
    }
  }

  static boolean isPrivate(InetAddress given) {
    InetAddress address = io.olmstead.controlplane.http.EmbeddedIpv4.effective(given);
    byte[] b = address.getAddress();
    boolean uniqueLocalV6 = b.length == 16 && (b[0] & 0xfe) == 0xfc;
    boolean sharedV4 = b.length == 4 && (b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64; // 100.64.0.0/10
    // 0.0.0.0/8 ("this network") and 240.0.0.0/4 with the broadcast address: never a receiver
    boolean reservedV4 = b.length == 4 && (b[0] == 0 || (b[0] & 0xf0) == 0xf0);
    return address.isLoopbackAddress() || address.isLinkLocalAddress() || address.isSiteLocalAddress()
        || address.isAnyLocalAddress() || address.isMulticastAddress() || uniqueLocalV6 || sharedV4 || reservedV4;
  }
}
