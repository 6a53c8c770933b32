package io.olmstead.controlplane.subscription;

import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A fleet subscription as the user declared it: which package to run from which catalog and
 * channel, where (placement), up to which version (policy), with which approval, config and owning
 * team. {@code installMode} is {@code AllNamespaces|OwnNamespace|SingleNamespace|MultiNamespace}
 * (the last two with {@code targetNamespaces}), null when the bundle decides ({@link
 * OperatorGroup}). {@code rolloutStrategy} (a rollout's {@code strategy} JSON, null: none): a
 * change of {@code version} rolls out under it instead of applying at once ({@link
 * DeclaredRollouts}).
 */
public record SubscriptionSpec(
    String name,
    String catalog,
    String packageName,
    String channel,
    String namespace,
    List<String> targetNamespaces,
    Placement placement,
    VersionPolicy version,
    String approval,
    JsonObject config,
    String team,
    String crdRemoval,
    JsonObject requirements,
    String crdUpgradeSafety,
    String installMode,
    JsonObject rolloutStrategy) {

  public static final String AUTOMATIC = "Automatic";
  public static final String MANUAL = "Manual";
  public static final String KEEP = "Keep";
  public static final String DELETE = "Delete";

  /**
   * {@code crdUpgradeSafety}: today's behaviour (stored versions and existing resources only, no
   * schema rules).
   */
  public static final String SAFETY_NONE = "None";

  /**
   * Cluster label that assigns a cluster to a team; team subscriptions only place on their team's
   * clusters.
   */
  public static final String TEAM_LABEL = "olmstead.io/team";

  public SubscriptionSpec {
    targetNamespaces = targetNamespaces == null ? List.of() : List.copyOf(targetNamespaces);
    config = config == null ? new JsonObject() : config;
    crdRemoval = crdRemoval == null ? KEEP : crdRemoval;
    crdUpgradeSafety = crdUpgradeSafety == null ? SAFETY_NONE : crdUpgradeSafety;
  }

  /** A spec without a rollout strategy: a change of its version applies at once. */
  public SubscriptionSpec(
      String name,
      String catalog,
      String packageName,
      String channel,
      String namespace,
      List<String> targetNamespaces,
      Placement placement,
      VersionPolicy version,
      String approval,
      JsonObject config,
      String team,
      String crdRemoval,
      JsonObject requirements,
      String crdUpgradeSafety,
      String installMode) {
    this(
        name,
        catalog,
        packageName,
        channel,
        namespace,
        targetNamespaces,
        placement,
        version,
        approval,
        config,
        team,
        crdRemoval,
        requirements,
        crdUpgradeSafety,
        installMode,
        null);
  }

  /** A spec whose install mode the bundle decides ({@code installMode} null). */
  public SubscriptionSpec(
      String name,
      String catalog,
      String packageName,
      String channel,
      String namespace,
      List<String> targetNamespaces,
      Placement placement,
      VersionPolicy version,
      String approval,
      JsonObject config,
      String team,
      String crdRemoval,
      JsonObject requirements,
      String crdUpgradeSafety) {
    this(
        name,
        catalog,
        packageName,
        channel,
        namespace,
        targetNamespaces,
        placement,
        version,
        approval,
        config,
        team,
        crdRemoval,
        requirements,
        crdUpgradeSafety,
        null);
  }

  /** A spec with the default {@code crdUpgradeSafety} ({@code None}). */
  public SubscriptionSpec(
      String name,
      String catalog,
      String packageName,
      String channel,
      String namespace,
      List<String> targetNamespaces,
      Placement placement,
      VersionPolicy version,
      String approval,
      JsonObject config,
      String team,
      String crdRemoval,
      JsonObject requirements) {
    this(
        name,
        catalog,
        packageName,
        channel,
        namespace,
        targetNamespaces,
        placement,
        version,
        approval,
        config,
        team,
        crdRemoval,
        requirements,
        null);
  }

  /** A spec without requirements (null: none). */
  public SubscriptionSpec(
      String name,
      String catalog,
      String packageName,
      String channel,
      String namespace,
      List<String> targetNamespaces,
      Placement placement,
      VersionPolicy version,
      String approval,
      JsonObject config,
      String team,
      String crdRemoval) {
    this(
        name,
        catalog,
        packageName,
        channel,
        namespace,
        targetNamespaces,
        placement,
        version,
        approval,
        config,
        team,
        crdRemoval,
        null);
  }

  /** Where a subscription applies: clusters matching the label selector and/or named clusters. */
  public record Placement(String selector, List<String> clusters) {
    public Placement {
      clusters = clusters == null ? List.of() : List.copyOf(clusters);
    }
  }

  /**
   * How far a subscription may upgrade: a pinned version, the highest version in a range, or the
   * channel head.
   */
  public record VersionPolicy(Kind kind, String value) {
    /** The three policies, with their JSON key. */
    public enum Kind {
      PIN("pin"),
      RANGE("range"),
      FOLLOW("follow");

      private final String key;

      Kind(String key) {
        this.key = key;
      }

      public String key() {
        return key;
      }
    }

    public static VersionPolicy followChannel() {
      return new VersionPolicy(Kind.FOLLOW, "channel");
    }

    public JsonObject toJson() {
      return new JsonObject().put(kind.key(), value);
    }
  }
}
