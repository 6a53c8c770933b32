package io.olmstead.controlplane.registry;

import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.http.HostAddresses;
import io.olmstead.controlplane.image.ImageReferences;
import io.olmstead.controlplane.registry.RegistryException.Kind;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.Set;
import org.apache.http.HttpHost;
import org.apache.http.conn.socket.ConnectionSocketFactory;
import org.apache.http.conn.socket.LayeredConnectionSocketFactory;
import org.apache.http.protocol.HttpContext;

/**
 * Refuses registries on loopback, link-local (cloud metadata at 169.254.169.254 included),
 * unspecified and multicast addresses, and the other well-known metadata endpoints, unless their
 * {@code HOST[:PORT]} is listed in {@code OLMSTEAD_REGISTRY_INSECURE} or {@code
 * OLMSTEAD_REGISTRY_ALLOW_LOCAL}: a catalog source or bundle image must not make the control plane
 * probe its own host or its cloud's metadata service. Checked on the reference (literal addresses,
 * at the API), on the resolved addresses before a pull, and on the address every connection
 * actually dials (redirects and DNS changes included). Private ranges (10/8, 172.16/12, 192.168/16)
 * stay allowed: that is where disconnected sites keep their mirrors.
 */
final class AddressGuard {

  /** A connection refused by the guard (an IOException so it travels through jib unchanged). */
  static final class LocalAddressRefused extends IOException {
    LocalAddressRefused(String registry) {
      super(message(registry));
    }
  }

  private final Set<String> allowed;

  AddressGuard(RegistrySettings settings) {
    this.allowed = settings.localAllowed();
  }

  /**
   * Why {@code registry} ({@code HOST[:PORT]}) is refused, judged without resolving it (API
   * validation).
   */
  static Optional<String> literalProblem(String registry, RegistrySettings settings) {
    return ImageReferences.literalProblem(registry, settings);
  }

  /**
   * Resolves {@code registry}'s host (blocking) and refuses it when any of its addresses is local.
   */
  void check(String registry) throws RegistryException {
    if (isListed(registry)) {
      return;
    }
    if (namedLocal(hostOf(registry))) {
      throw new RegistryException(Kind.INVALID, message(registry));
    }
    try {
      for (InetAddress a : InetAddress.getAllByName(hostOf(registry))) {
        if (local(a)) {
          throw new RegistryException(Kind.INVALID, message(registry));
        }
      }
    } catch (UnknownHostException e) {
      throw JibErrors.unreachable(registry);
    }
  }

  ConnectionSocketFactory wrap(ConnectionSocketFactory delegate) {
    return new LayeredConnectionSocketFactory() {
      @Override
      public Socket createSocket(HttpContext context) throws IOException {
        return delegate.createSocket(context);
      }

      @Override
      public Socket connectSocket(
          int timeout,
          Socket socket,
          HttpHost host,
          InetSocketAddress remote,
          InetSocketAddress local,
          HttpContext context)
          throws IOException {
        String name = host.getHostName();
        // HttpHost keeps an IPv6 literal's brackets: bracketing it again wrote [[::1]]:5000
        String registry = HostAddresses.hostPort(name, remote.getPort());
        if (remote.getAddress() != null && local(remote.getAddress()) && !isListed(registry)) {
          throw new LocalAddressRefused(registry);
        }
        return delegate.connectSocket(timeout, socket, host, remote, local, context);
      }

      @Override
      public Socket createLayeredSocket(Socket socket, String target, int port, HttpContext context)
          throws IOException {
        if (delegate instanceof LayeredConnectionSocketFactory layered) {
          return layered.createLayeredSocket(socket, target, port, context);
        }
        throw new IOException("plain HTTP cannot be layered");
      }
    };
  }

  private boolean isListed(String registry) {
    return allowed.contains(registry) || allowed.contains(hostOf(registry));
  }

  private static boolean namedLocal(String host) {
    return ImageReferences.namedLocal(host);
  }

  static boolean local(InetAddress given) {
    return ImageReferences.local(given);
  }

  static String hostOf(String registry) {
    return ImageReferences.hostOf(registry);
  }

  private static String message(String registry) {
    return ImageReferences.localMessage(registry);
  }
}
