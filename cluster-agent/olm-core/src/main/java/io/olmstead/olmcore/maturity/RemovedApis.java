package io.olmstead.olmcore.maturity;

import java.util.Optional;

/**
 * The Kubernetes release that stopped serving an object's apiVersion and kind (the table of {@link
 * RemovedApiRules}).
 */
public final class RemovedApis {
  private RemovedApis() {}

  /**
   * {@code "1.22"} for {@code apiextensions.k8s.io/v1beta1 CustomResourceDefinition}; empty when
   * still served.
   */
  public static Optional<String> removedIn(String apiVersion, String kind) {
    return Optional.ofNullable(RemovedApiRules.REMOVED_IN.get(apiVersion + " " + kind));
  }
}
