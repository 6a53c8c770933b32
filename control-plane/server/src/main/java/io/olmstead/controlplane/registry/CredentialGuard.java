package io.olmstead.controlplane.registry;

import io.olmstead.controlplane.config.RegistrySettings;
import java.io.IOException;
import java.util.Set;
import org.apache.http.HttpHeaders;
import org.apache.http.HttpHost;
import org.apache.http.HttpRequest;
import org.apache.http.HttpRequestInterceptor;
import org.apache.http.protocol.HttpContext;
import org.apache.http.protocol.HttpCoreContext;

/**
 * Refuses to send a request carrying credentials ({@code Authorization}: the auth file's Basic
 * pair, or a bearer token) over plain HTTP or unverified TLS to a host not listed in {@code
 * OLMSTEAD_REGISTRY_INSECURE}. A registry names its token realm itself; over verified HTTPS the
 * credentials may go to any realm host (as Docker and containerd send them), but only a host the
 * operator listed may receive them unprotected.
 */
final class CredentialGuard implements HttpRequestInterceptor {

  /** Credentials were about to travel unprotected to a host not listed as insecure. */
  static final class Refused extends IOException {
    Refused(String target) {
      super(
          "credentials are not sent to "
              + target
              + " over plain HTTP or unverified TLS: it is not listed in "
              + RegistrySettings.INSECURE);
    }
  }

  private final Set<String> insecureHosts;
  private final boolean verifiedTls;

  /** {@code verifiedTls}: whether the transport this guards checks certificates and host names. */
  CredentialGuard(Set<String> insecureHosts, boolean verifiedTls) {
    this.insecureHosts = insecureHosts;
    this.verifiedTls = verifiedTls;
  }

  /**
   * Whether credentials may go to {@code scheme://hostAndPort} (pure: the rule, without a request).
   */
  static boolean allowed(
      Set<String> insecureHosts, boolean verifiedTls, String scheme, String hostAndPort) {
    return "https".equals(scheme) && verifiedTls || insecureHosts.contains(hostAndPort);
  }

  @Override
  public void process(HttpRequest request, HttpContext context) throws IOException {
    if (!request.containsHeader(HttpHeaders.AUTHORIZATION)) {
      return;
    }
    HttpHost target = HttpCoreContext.adapt(context).getTargetHost();
    if (target != null
        && !allowed(insecureHosts, verifiedTls, target.getSchemeName(), target.toHostString())) {
      throw new Refused(target.getSchemeName() + "://" + target.toHostString());
    }
  }
}
