package io.olmstead.controlplane.subscription;

import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * One subscription as a cluster should run it now: the catalog revision (by digest) to resolve
 * from, the resolved channel, and {@code maxVersion}, the highest version the cluster may reach.
 * {@code startingBundle} is the bundle a fresh install starts at (null: the channel head). When
 * {@code blockedReason} is set without {@code maxVersion} the catalog cannot satisfy the version
 * policy any more: the agent keeps what is installed and neither installs nor upgrades; with a
 * {@code maxVersion} it says why the maturity policy holds the subscription there ({@link
 * MaturityHold}). {@code rollback} marks a {@code maxVersion} that is a rollout's approval: only
 * then does an agent go below what it runs. {@code crdUpgradeSafety} is the subscription's {@code
 * Strict|Warn} (null for {@code None}, the default).
 */
public record ComputedSubscription(
    String name,
    String catalog,
    String catalogDigest,
    String packageName,
    String channel,
    String namespace,
    List<String> targetNamespaces,
    String approval,
    String startingBundle,
    String maxVersion,
    JsonObject config,
    String crdRemoval,
    long generation,
    String blockedReason,
    Boolean rollback,
    String crdUpgradeSafety) {

  /** A subscription without CRD schema change rules ({@code crdUpgradeSafety} None). */
  public ComputedSubscription(
      String name,
      String catalog,
      String catalogDigest,
      String packageName,
      String channel,
      String namespace,
      List<String> targetNamespaces,
      String approval,
      String startingBundle,
      String maxVersion,
      JsonObject config,
      String crdRemoval,
      long generation,
      String blockedReason,
      Boolean rollback) {
    this(
        name,
        catalog,
        catalogDigest,
        packageName,
        channel,
        namespace,
        targetNamespaces,
        approval,
        startingBundle,
        maxVersion,
        config,
        crdRemoval,
        generation,
        blockedReason,
        rollback,
        null);
  }

  /** A subscription as its version policy sets it (no rollout approval). */
  public ComputedSubscription(
      String name,
      String catalog,
      String catalogDigest,
      String packageName,
      String channel,
      String namespace,
      List<String> targetNamespaces,
      String approval,
      String startingBundle,
      String maxVersion,
      JsonObject config,
      String crdRemoval,
      long generation,
      String blockedReason) {
    this(
        name,
        catalog,
        catalogDigest,
        packageName,
        channel,
        namespace,
        targetNamespaces,
        approval,
        startingBundle,
        maxVersion,
        config,
        crdRemoval,
        generation,
        blockedReason,
        null,
        null);
  }
}
