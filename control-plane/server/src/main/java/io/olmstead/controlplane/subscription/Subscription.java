package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import java.time.OffsetDateTime;

/**
 * A stored subscription: its spec as declared plus the generation (bumped on spec changes) and
 * optimistic-lock version. {@code applied}: the version policy agents are told while a rollout
 * moves the fleet to the declared one (or after it rolled back or failed); null when the declared
 * policy applies.
 */
public record Subscription(
    SubscriptionSpec spec,
    long generation,
    long resourceVersion,
    String createdBy,
    OffsetDateTime createdAt,
    OffsetDateTime updatedAt,
    VersionPolicy applied) {

  public Subscription(
      SubscriptionSpec spec,
      long generation,
      long resourceVersion,
      String createdBy,
      OffsetDateTime createdAt,
      OffsetDateTime updatedAt) {
    this(spec, generation, resourceVersion, createdBy, createdAt, updatedAt, null);
  }

  /**
   * The policy agents run outside rollout approvals: {@link #applied} while set, else the declared
   * one.
   */
  public VersionPolicy effectiveVersion() {
    return applied != null ? applied : spec.version();
  }

  public String name() {
    return spec.name();
  }

  public String etag() {
    return "\"" + resourceVersion + "\"";
  }
}
