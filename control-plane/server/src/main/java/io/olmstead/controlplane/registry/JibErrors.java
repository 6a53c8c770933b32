package io.olmstead.controlplane.registry;

import com.google.cloud.tools.jib.api.ImageReference;
import com.google.cloud.tools.jib.api.InsecureRegistryException;
import com.google.cloud.tools.jib.api.RegistryUnauthorizedException;
import com.google.cloud.tools.jib.http.ResponseException;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.registry.RegistryException.Kind;
import java.util.Locale;

/**
 * Maps jib's exceptions to {@link RegistryException}s whose message names the registry and image
 * only.
 */
final class JibErrors {

  private JibErrors() {}

  static RegistryException map(ImageReference ref, String what, Exception e) {
    String image = ref.getRegistry() + "/" + ref.getRepository();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BoundedOutputStream.LimitExceeded) {
        return new RegistryException(
            Kind.TOO_LARGE, what + " of " + image + " exceeds the size limit");
      }
      if (t instanceof ManifestLimit.TooLarge) {
        return new RegistryException(Kind.TOO_LARGE, what + " of " + image + ": " + t.getMessage());
      }
      if (t instanceof CredentialGuard.Refused) {
        return new RegistryException(
            Kind.DENIED,
            "registry " + ref.getRegistry() + " asked for " + what + ": " + t.getMessage());
      }
      if (t instanceof AddressGuard.LocalAddressRefused) {
        return new RegistryException(Kind.INVALID, t.getMessage());
      }
      if (t.getClass()
          .getSimpleName()
          .equals("UnexpectedBlobDigestException")) { // package-private in jib
        return new RegistryException(
            Kind.DIGEST_MISMATCH,
            what + " of " + image + ": the registry sent content whose digest does not match");
      }
      if (t instanceof RegistryUnauthorizedException) {
        return new RegistryException(
            Kind.DENIED,
            "registry "
                + ref.getRegistry()
                + " denied access to "
                + image
                + " (HTTP 401/403: check the credentials for it in "
                + RegistrySettings.AUTH_FILE
                + ")");
      }
      if (t instanceof InsecureRegistryException) {
        return new RegistryException(
            Kind.UNREACHABLE,
            "registry "
                + ref.getRegistry()
                + " does not answer over verified HTTPS (list it in "
                + RegistrySettings.INSECURE
                + " for plain HTTP)");
      }
      if (t instanceof ResponseException r) {
        return byStatus(r.getStatusCode(), what, image);
      }
    }
    String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    if (message.contains("unknown") || message.contains("not found")) {
      return new RegistryException(Kind.NOT_FOUND, what + " of " + image + " not found");
    }
    if (message.contains("unauthorized") || message.contains("denied")) {
      return new RegistryException(
          Kind.DENIED, "registry " + ref.getRegistry() + " denied access to " + image);
    }
    if (e instanceof com.google.cloud.tools.jib.api.RegistryException) {
      return new RegistryException(Kind.INVALID, what + " of " + image + ": " + e.getMessage());
    }
    return unreachable(ref.getRegistry());
  }

  /**
   * A registry that could not be reached: one message whether the port was closed, filtered, silent
   * or the name unknown, so a catalog source's error cannot serve as a port scanner.
   */
  static RegistryException unreachable(String registry) {
    return new RegistryException(
        Kind.UNREACHABLE,
        "registry "
            + registry
            + " could not be reached (no connection, "
            + "no answer within "
            + RegistrySettings.READ_TIMEOUT_SECONDS
            + ", or no complete answer within "
            + RegistrySettings.TIMEOUT_SECONDS
            + ")");
  }

  private static RegistryException byStatus(int status, String what, String image) {
    if (status == 404) {
      return new RegistryException(Kind.NOT_FOUND, what + " of " + image + " not found (HTTP 404)");
    }
    if (status == 401 || status == 403) {
      return new RegistryException(
          Kind.DENIED, "registry denied access to " + image + " (HTTP " + status + ")");
    }
    if (status >= 500 || status == 429) {
      return new RegistryException(
          Kind.UNREACHABLE, what + " of " + image + ": registry answered HTTP " + status);
    }
    return new RegistryException(
        Kind.INVALID, what + " of " + image + ": registry answered HTTP " + status);
  }
}
