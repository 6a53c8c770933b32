package io.olmstead.controlplane.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which addresses an outbound connection the control plane makes for a user (a registry pull, a
 * webhook delivery) must not reach. One classification for both callers: registries refuse {@link
 * #isLocal local} addresses (private ranges stay allowed, disconnected sites keep their mirrors
 * there); webhooks refuse every {@link #isPrivate private} one. Addresses embedded in IPv6 forms
 * are judged as the IPv4 address they reach ({@link EmbeddedIpv4}).
 */
public final class AddressRanges {
  private static final String PART = "(0x[0-9a-f]{0,8}|[0-9]{1,11})";
  private static final Pattern IPV4_FORMS = Pattern.compile(PART + "(\\." + PART + "){0,3}");
  private static final Pattern IPV6_FORM = Pattern.compile("[0-9a-f:.]*:[0-9a-f:.]*");

  private AddressRanges() {}

  /** {@code localhost} and its subdomains (RFC 6761: always loopback, whatever DNS says). */
  public static boolean isLocalhostName(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    return h.equals("localhost") || h.endsWith(".localhost");
  }

  /**
   * The address a host written in a URL or image reference names when it is an IP literal (brackets
   * and IPv6 zone removed; dotted, shortened, single-number, hex and octal IPv4 as inet_aton reads
   * them, so {@code 2130706433} and {@code 0x7f.1} are 127.0.0.1), parsed without any DNS lookup;
   * empty for a name.
   */
  public static Optional<InetAddress> literal(String host) {
    String h = EmbeddedIpv4.literal(host.toLowerCase(Locale.ROOT));
    try {
      if (IPV4_FORMS.matcher(h).matches()) {
        return ipv4(h.split("\\."))
            .map(
                bytes -> {
                  try {
                    return InetAddress.getByAddress(bytes);
                  } catch (UnknownHostException e) {
                    throw new IllegalStateException(e); // four bytes are always accepted
                  }
                });
      }
      // a colon makes Java parse it as an IPv6 literal, never look it up
      return IPV6_FORM.matcher(h).matches()
          ? Optional.of(InetAddress.getByName(h))
          : Optional.empty();
    } catch (UnknownHostException | NumberFormatException e) {
      return Optional.empty(); // NumberFormatException: an octal part with 8 or 9 in it
    }
  }

  /**
   * Loopback, link-local (cloud metadata at 169.254.169.254 included), unspecified or multicast.
   */
  public static boolean isLocal(InetAddress given) {
    InetAddress a = EmbeddedIpv4.effective(given);
    return a.isLoopbackAddress()
        || a.isLinkLocalAddress()
        || a.isAnyLocalAddress()
        || a.isMulticastAddress();
  }

  /**
   * {@link #isLocal} or a private or reserved range: 10/8, 172.16/12, 192.168/16, fc00::/7,
   * 100.64/10 (carrier-grade NAT), 0/8 ("this network") and 240/4 with the broadcast address.
   */
  public static boolean isPrivate(InetAddress given) {
    InetAddress a = EmbeddedIpv4.effective(given);
    byte[] b = a.getAddress();
    boolean uniqueLocalV6 = b.length == 16 && (b[0] & 0xfe) == 0xfc;
    boolean sharedV4 = b.length == 4 && (b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64;
    boolean reservedV4 = b.length == 4 && (b[0] == 0 || (b[0] & 0xf0) == 0xf0);
    return isLocal(a) || a.isSiteLocalAddress() || uniqueLocalV6 || sharedV4 || reservedV4;
  }

  // inet_aton: a (32 bits), a.b (8.24), a.b.c (8.8.16), a.b.c.d (8 each); out of range: not an
  // address
  private static Optional<byte[]> ipv4(String[] parts) {
    long value = 0;
    for (int i = 0; i < parts.length; i++) {
      long part = number(parts[i]);
      boolean last = i == parts.length - 1;
      int bits = last ? 8 * (4 - i) : 8;
      if (part >= (1L << bits)) {
        return Optional.empty();
      }
      value = last ? (value << bits) | part : (value << 8) | part;
    }
    return Optional.of(
        new byte[] {
          (byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value
        });
  }

  private static long number(String part) {
    if (part.startsWith("0x")) {
      return part.length() == 2 ? 0 : Long.parseLong(part.substring(2), 16);
    }
    return part.length() > 1 && part.startsWith("0")
        ? Long.parseLong(part, 8)
        : Long.parseLong(part);
  }
}
