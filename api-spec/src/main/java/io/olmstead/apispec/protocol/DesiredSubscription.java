package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * One subscription the cluster should have: what to install from which catalog revision (by
 * digest), where, and the highest version it is approved to reach ({@code maxVersion}). {@code
 * generation} is the subscription's spec generation (echoed back as {@code observedGeneration});
 * with {@code blockedReason} set and no {@code maxVersion} the catalog cannot satisfy the version
 * policy and the agent keeps what it has; with a {@code maxVersion} it is why the control plane's
 * maturity policy holds the subscription there (the agent moves up to it as usual). {@code
 * rollback} is true when {@code maxVersion} is a rollout's approved version, which may lie below
 * what runs: the agent then goes back to it (where the CRDs allow); without it a cluster above
 * {@code maxVersion} keeps what it runs, as OLM never downgrades. {@code crdUpgradeSafety} ({@code
 * Strict|Warn|None}, absent: {@code None}) says what olm-core's CRD schema change rules do to an
 * upgrade: block it, report their findings, or nothing. {@code package} is a Java keyword, hence
 * the rename.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DesiredSubscription(
    String name,
    String catalog,
    String catalogDigest,
    @JsonProperty("package") String packageName,
    String channel,
    String namespace,
    List<String> targetNamespaces,
    String approval,
    String startingBundle,
    String maxVersion,
    Map<String, Object> config,
    String crdRemoval,
    long generation,
    String blockedReason,
    Boolean rollback,
    String crdUpgradeSafety) {

  /** A subscription without CRD schema change rules ({@code crdUpgradeSafety} absent). */
  public DesiredSubscription(
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
      Map<String, Object> config,
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

  /** A subscription whose {@code maxVersion} is no rollout's approval ({@code rollback} absent). */
  public DesiredSubscription(
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
      Map<String, Object> config,
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
