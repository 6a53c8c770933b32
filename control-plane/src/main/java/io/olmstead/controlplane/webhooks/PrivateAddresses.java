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
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    if (!h.matches("[0-9.]+|[0-9a-f:.]+") || !h.matches(".*[.:].*")) {
      return false;
    }
    try {
      return isPrivate(InetAddress.getByName(h));
    } catch (UnknownHostException e) {
      return false;
    }
  }

  static boolean isPrivate(InetAddress address) {
    byte[] b = address.getAddress();
    boolean uniqueLocalV6 = b.length == 16 && (b[0] & 0xfe) == 0xfc;
    boolean sharedV4 = b.length == 4 && (b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64; // 100.64.0.0/10
    return address.isLoopbackAddress() || address.isLinkLocalAddress() || address.isSiteLocalAddress()
        || address.isAnyLocalAddress() || address.isMulticastAddress() || uniqueLocalV6 || sharedV4;
  }
}
