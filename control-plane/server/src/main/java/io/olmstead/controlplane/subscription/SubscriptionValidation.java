package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.selector.LabelSelector;
import io.olmstead.controlplane.subscription.CatalogView.ChannelView;
import io.olmstead.controlplane.subscription.CatalogView.PackageView;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import io.olmstead.olmcore.semver.Version;
import io.olmstead.olmcore.semver.VersionException;
import io.olmstead.olmcore.semver.VersionRange;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * The semantic checks of a subscription (its shape was checked by the schema): the selector parses,
 * the version policy parses, and package, channel and version exist in the catalog's current
 * revision. Pure; every problem is listed.
 */
public final class SubscriptionValidation {
  private SubscriptionValidation() {}

  /** Checks that need no catalog. */
  public static JsonArray syntax(SubscriptionSpec spec) {
    JsonArray errors = new JsonArray();
    String selector = spec.placement().selector();
    if (selector != null) {
      try {
        LabelSelector.parse(selector);
      } catch (IllegalArgumentException e) {
        errors.add(error("/placement/selector", "invalid label selector: " + e.getMessage()));
      }
    }
    errors.addAll(OperatorGroup.problems(spec));
    VersionPolicy policy = spec.version();
    switch (policy.kind()) {
      case PIN -> {
        if (Version.tryParse(policy.value()).isEmpty()) {
          errors.add(error("/version/pin", "\"" + policy.value() + "\" is not a semantic version"));
        }
      }
      case RANGE -> {
        try {
          VersionRange.parse(policy.value());
        } catch (VersionException e) {
          errors.add(error("/version/range", e.getMessage()));
        }
      }
      default -> {
        if (!"channel".equals(policy.value())) {
          errors.add(error("/version/follow", "only \"channel\" can be followed"));
        }
      }
    }
    return errors;
  }

  /** Checks against the catalog's current revision (empty: the catalog has none). */
  public static JsonArray againstCatalog(SubscriptionSpec spec, Optional<CatalogView> catalog) {
    JsonArray errors = new JsonArray();
    if (catalog.isEmpty()) {
      errors.add(
          error(
              "/catalog", "catalog " + spec.catalog() + " does not exist or has no revision yet"));
      return errors;
    }
    Optional<PackageView> pkg = catalog.get().pkg(spec.packageName());
    if (pkg.isEmpty()) {
      errors.add(
          error(
              "/package",
              "package " + spec.packageName() + " is not in catalog " + spec.catalog()));
      return errors;
    }
    Optional<ChannelView> channel = pkg.get().channel(spec.channel());
    if (channel.isEmpty()) {
      errors.add(
          error(
              "/channel",
              spec.channel() == null
                  ? "package " + spec.packageName() + " has no usable default channel"
                  : "channel " + spec.channel() + " is not in package " + spec.packageName()));
      return errors;
    }
    DesiredState.Ceiling ceiling = DesiredState.ceiling(spec.version(), channel.get());
    if (ceiling.problem() != null) {
      errors.add(error("/version/" + spec.version().kind().key(), ceiling.problem()));
    }
    return errors;
  }

  static JsonObject error(String field, String message) {
    return new JsonObject().put("field", field).put("message", message);
  }
}
