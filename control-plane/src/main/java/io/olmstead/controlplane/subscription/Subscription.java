package io.olmstead.controlplane.subscription;

import java.time.OffsetDateTime;

/** A stored subscription: its spec plus the generation (bumped on spec changes) and optimistic-lock version. */
public record Subscription(SubscriptionSpec spec, long generation, long resourceVersion, String createdBy,
    OffsetDateTime createdAt, OffsetDateTime updatedAt) {

  public String name() {
    return spec.name();
  }

  public String etag() {
    return "\"" + resourceVersion + "\"";
  }
}
