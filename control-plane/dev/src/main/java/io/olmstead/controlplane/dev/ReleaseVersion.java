package io.olmstead.controlplane.dev;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SIMULATION: the OpenShift version a release image stands for, read from its tag as the simulated
 * HyperShift operator does ({@code quay.io/openshift-release-dev/ocp-release:4.19.7-multi} is
 * 4.19.7; an architecture suffix is dropped, a pre-release such as {@code 4.20.0-rc.1} kept). The
 * real operator reads the release payload's metadata instead; an image named by digest only has no
 * version here.
 */
public final class ReleaseVersion {
  private static final Pattern TAG_VERSION =
      Pattern.compile(
          "^(\\d+\\.\\d+\\.\\d+(?:-(?:ec|rc|fc)\\.\\d+)?)"
              + "(?:-(?:multi|x86_64|aarch64|arm64|s390x|ppc64le|amd64))?$");

  private ReleaseVersion() {}

  /**
   * The version in the image's tag, or empty when the image has no tag or its tag is not a version.
   */
  public static Optional<String> of(String image) {
    if (image == null) {
      return Optional.empty();
    }
    String ref = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
    int slash = ref.lastIndexOf('/');
    int colon = ref.lastIndexOf(':');
    if (colon <= slash) {
      return Optional.empty();
    }
    Matcher m = TAG_VERSION.matcher(ref.substring(colon + 1));
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }
}
