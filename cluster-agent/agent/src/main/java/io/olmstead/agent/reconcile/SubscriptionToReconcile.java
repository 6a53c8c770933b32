package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One subscription the cluster should have, as the reconcile loop consumes it (the channel's
 * protocol record is mapped onto this by {@link ProtocolMapping}).
 *
 * @param targetNamespaces the namespace's operator group: {@code [""]} all namespaces, {@code
 *     [namespace]} its own, other namespaces Single/MultiNamespace; empty: the bundle's default
 *     (AllNamespaces where its CSV supports it, else its own)
 * @param maxVersion the highest version the cluster is approved to reach; null = follow the channel
 * @param config the Subscription {@code config} block (env, resources, nodeSelector, ...), null
 *     when absent
 * @param deleteCrdsOnRemoval {@code removal: {crds: Delete}}: removing the subscription also
 *     deletes its CRDs
 * @param blockedReason set by the control plane when the version policy cannot be met (no
 *     maxVersion): keep what is installed; with a maxVersion, why the control plane holds the
 *     subscription there (it moves up to it as usual)
 * @param rollback {@code maxVersion} is a rollout's approved version: a cluster running above it
 *     goes back to it; otherwise (OLM's rule) it keeps what runs
 * @param crdUpgradeSafety {@code Strict|Warn|None} (null: None): what the CRD schema change rules
 *     do to an upgrade
 */
public record SubscriptionToReconcile(
    String name,
    String catalog,
    String catalogDigest,
    String packageName,
    String channel,
    String namespace,
    List<String> targetNamespaces,
    Approval approval,
    String startingBundle,
    String maxVersion,
    JsonNode config,
    boolean deleteCrdsOnRemoval,
    long generation,
    String blockedReason,
    boolean rollback,
    String crdUpgradeSafety) {

  /** How an upgrade (or the first install) is approved. */
  public enum Approval {
    AUTOMATIC,
    MANUAL
  }

  public SubscriptionToReconcile {
    targetNamespaces = targetNamespaces == null ? List.of() : List.copyOf(targetNamespaces);
    approval = approval == null ? Approval.AUTOMATIC : approval;
  }

  /** A subscription without CRD schema change rules. */
  public SubscriptionToReconcile(
      String name,
      String catalog,
      String catalogDigest,
      String packageName,
      String channel,
      String namespace,
      List<String> targetNamespaces,
      Approval approval,
      String startingBundle,
      String maxVersion,
      JsonNode config,
      boolean deleteCrdsOnRemoval,
      long generation,
      String blockedReason,
      boolean rollback) {
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
        deleteCrdsOnRemoval,
        generation,
        blockedReason,
        rollback,
        null);
  }

  /** A subscription whose {@code maxVersion} is no rollout's approval. */
  public SubscriptionToReconcile(
      String name,
      String catalog,
      String catalogDigest,
      String packageName,
      String channel,
      String namespace,
      List<String> targetNamespaces,
      Approval approval,
      String startingBundle,
      String maxVersion,
      JsonNode config,
      boolean deleteCrdsOnRemoval,
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
        deleteCrdsOnRemoval,
        generation,
        blockedReason,
        false);
  }

  /**
   * An automatic subscription following {@code channel} up to {@code maxVersion}; for tests and
   * simulations.
   */
  public static SubscriptionToReconcile of(
      String name,
      String catalog,
      String packageName,
      String channel,
      String namespace,
      String maxVersion) {
    return new SubscriptionToReconcile(
        name,
        catalog,
        null,
        packageName,
        channel,
        namespace,
        List.of(),
        Approval.AUTOMATIC,
        null,
        maxVersion,
        null,
        false,
        1,
        null);
  }

  public SubscriptionToReconcile withApproval(Approval value) {
    return new SubscriptionToReconcile(
        name,
        catalog,
        catalogDigest,
        packageName,
        channel,
        namespace,
        targetNamespaces,
        value,
        startingBundle,
        maxVersion,
        config,
        deleteCrdsOnRemoval,
        generation,
        blockedReason,
        rollback,
        crdUpgradeSafety);
  }

  public SubscriptionToReconcile withMaxVersion(String value) {
    return new SubscriptionToReconcile(
        name,
        catalog,
        catalogDigest,
        packageName,
        channel,
        namespace,
        targetNamespaces,
        approval,
        startingBundle,
        value,
        config,
        deleteCrdsOnRemoval,
        generation + 1,
        blockedReason,
        rollback,
        crdUpgradeSafety);
  }

  public SubscriptionToReconcile withStartingBundle(String value) {
    return new SubscriptionToReconcile(
        name,
        catalog,
        catalogDigest,
        packageName,
        channel,
        namespace,
        targetNamespaces,
        approval,
        value,
        maxVersion,
        config,
        deleteCrdsOnRemoval,
        generation,
        blockedReason,
        rollback,
        crdUpgradeSafety);
  }

  /**
   * The same with {@code maxVersion} as a rollout's approved version (a rollback target when it is
   * lower).
   */
  public SubscriptionToReconcile withRollbackTo(String version) {
    return new SubscriptionToReconcile(
        name,
        catalog,
        catalogDigest,
        packageName,
        channel,
        namespace,
        targetNamespaces,
        approval,
        startingBundle,
        version,
        config,
        deleteCrdsOnRemoval,
        generation + 1,
        blockedReason,
        true,
        crdUpgradeSafety);
  }

  public SubscriptionToReconcile withCrdRemoval(boolean delete) {
    return new SubscriptionToReconcile(
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
        delete,
        generation,
        blockedReason,
        rollback,
        crdUpgradeSafety);
  }

  public SubscriptionToReconcile withCrdUpgradeSafety(String value) {
    return new SubscriptionToReconcile(
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
        deleteCrdsOnRemoval,
        generation,
        blockedReason,
        rollback,
        value);
  }

  /**
   * The operator group's targets as olm-core's planner takes them (empty: the bundle's default
   * mode).
   */
  public List<String> effectiveTargets() {
    return targetNamespaces;
  }
}
