package io.olmstead.controlplane.image;

import com.google.cloud.tools.jib.api.ImageReference;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.http.AddressRanges;
import io.olmstead.controlplane.http.EmbeddedIpv4;
import java.net.InetAddress;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks an image reference strictly before it is stored or pulled (jib's parser accepts ports over
 * 65535, port 0 and short or upper-case digests): {@code
 * [REGISTRY[:PORT]/]REPOSITORY[:TAG][@sha256:DIGEST]} with a port in 1..65535, a tag of at most 128
 * characters of {@code [A-Za-z0-9_.-]} not starting with {@code .} or {@code -}, and a digest of
 * {@code sha256:} and 64 lower-case hex digits. Pure; the message says which part is wrong.
 */
public final class ImageReferences {

  static final int MAX_LENGTH = 1024;
  private static final Pattern DIGEST = Pattern.compile("sha256:[a-f0-9]{64}");
  private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");
  private static final Pattern PORT = Pattern.compile(".*:([0-9]+)");
  private static final Set<String> METADATA_NAMES =
      Set.of(
          "localhost",
          "metadata",
          "metadata.google.internal",
          "metadata.goog",
          "instance-data",
          "instance-data.ec2.internal");
  private static final Set<String> METADATA_ADDRESSES =
      Set.of("fd00:ec2:0:0:0:0:0:254", "100.100.100.200");

  private ImageReferences() {}

  /** What is wrong with {@code reference}; empty when it is a valid reference. */
  public static Optional<String> problem(String reference) {
    if (reference == null || reference.isBlank()) {
      return Optional.of("an image reference is required");
    }
    if (reference.length() > MAX_LENGTH) {
      return Optional.of("the image reference is longer than " + MAX_LENGTH + " characters");
    }
    String name = reference;
    int at = reference.indexOf('@');
    if (at >= 0) {
      String digest = reference.substring(at + 1);
      if (!DIGEST.matcher(digest).matches()) {
        return Optional.of(
            "digest '" + digest + "' is not sha256: followed by 64 lower-case hex digits");
      }
      name = reference.substring(0, at);
    }
    int slash = name.lastIndexOf('/');
    int colon = name.lastIndexOf(':');
    if (colon > slash) {
      String tag = name.substring(colon + 1);
      if (!TAG.matcher(tag).matches()) {
        return Optional.of(
            "tag '"
                + abbreviate(tag)
                + "' must be 1 to 128 letters, digits, '_', '.' or '-', "
                + "not starting with '.' or '-'");
      }
      name = name.substring(0, colon);
    }
    int first = name.indexOf('/');
    if (first > 0) {
      Matcher port = PORT.matcher(name.substring(0, first));
      if (port.matches() && !validPort(port.group(1))) {
        return Optional.of("registry port " + abbreviate(port.group(1)) + " is not in 1..65535");
      }
    }
    try {
      ImageReference.parse(reference);
      return Optional.empty();
    } catch (Exception e) {
      return Optional.of(
          "'"
              + abbreviate(reference)
              + "' is not an image reference "
              + "([REGISTRY[:PORT]/]REPOSITORY[:TAG][@sha256:DIGEST])");
    }
  }

  /**
   * {@link #problem}, then the registry's address judged without resolving it: a loopback,
   * link-local or metadata address not listed in the settings is refused (pulls check the resolved
   * addresses again).
   */
  public static Optional<String> check(String reference, RegistrySettings settings) {
    Optional<String> problem = problem(reference);
    return problem.isPresent() ? problem : literalProblem(registryOf(reference), settings);
  }

  private static boolean validPort(String digits) {
    if (digits.length() > 5) {
      return false;
    }
    int p = Integer.parseInt(digits);
    return p >= 1 && p <= 65535;
  }

  private static String abbreviate(String s) {
    return s.length() > 64 ? s.substring(0, 64) + "…" : s;
  }

  /**
   * Why {@code registry} ({@code HOST[:PORT]}) is refused, judged without resolving it (API
   * validation).
   */
  public static Optional<String> literalProblem(String registry, RegistrySettings settings) {
    boolean listed =
        settings.localAllowed().contains(registry)
            || settings.localAllowed().contains(hostOf(registry));
    return !listed && namedLocal(hostOf(registry))
        ? Optional.of(localMessage(registry))
        : Optional.empty();
  }

  /**
   * The registry of {@code reference}: its first path element when it names a host, else docker.io.
   */
  public static String registryOf(String reference) {
    int slash = reference.indexOf('/');
    if (slash < 0) {
      return "docker.io";
    }
    String first = reference.substring(0, slash);
    return first.contains(".") || first.contains(":") || first.equals("localhost")
        ? first
        : "docker.io";
  }

  /**
   * A name that means this machine or a cloud metadata service, or a literal local address; never
   * looked up.
   */
  public static boolean namedLocal(String host) {
    return METADATA_NAMES.contains(host.toLowerCase(Locale.ROOT))
        || AddressRanges.isLocalhostName(host)
        || AddressRanges.literal(host)
            .map(ImageReferences::local)
            .orElse(false); // a literal: parsed, never looked up
  }

  /** A loopback, link-local or private address, or a cloud metadata address. */
  public static boolean local(InetAddress given) {
    return AddressRanges.isLocal(given)
        || METADATA_ADDRESSES.contains(EmbeddedIpv4.effective(given).getHostAddress());
  }

  /** The host of {@code HOST[:PORT]} ({@code [v6]:PORT} too), brackets removed. */
  public static String hostOf(String registry) {
    if (registry.startsWith("[")) {
      int end = registry.indexOf(']');
      return end < 0 ? registry : registry.substring(1, end);
    }
    int colon = registry.lastIndexOf(':');
    return colon < 0 || registry.indexOf(':') != colon ? registry : registry.substring(0, colon);
  }

  /** Why a local registry is refused, naming the settings that allow it. */
  public static String localMessage(String registry) {
    return "registry "
        + registry
        + " is a loopback, link-local or metadata address: list it in "
        + RegistrySettings.ALLOW_LOCAL
        + " (or "
        + RegistrySettings.INSECURE
        + ") to pull from it";
  }
}
