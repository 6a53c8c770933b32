package io.olmstead.controlplane.catalog;

import io.olmstead.olmcore.fbc.ChannelEntry;
import io.olmstead.olmcore.fbc.ChannelGraph;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The single upgrade steps from a bundle or version toward the channel head, never past a ceiling
 * (pure).
 */
public final class UpgradePaths {
  private UpgradePaths() {}

  /**
   * Why a path could not be computed: a {@code to} that is no version (400) or an unknown {@code
   * from} (404).
   */
  public static final class PathException extends Exception {
    private final boolean notFound;

    PathException(boolean notFound, String message) {
      super(message);
      this.notFound = notFound;
    }

    public boolean notFound() {
      return notFound;
    }
  }

  /**
   * {@code from} is a bundle of the channel, or a version: the channel's bundle with that version,
   * else an installed version outside the channel (only skipRange edges then lead out of it).
   */
  public static JsonObject compute(ChannelGraph graph, String from, String to)
      throws PathException {
    Version ceiling = null;
    if (to != null) {
      ceiling =
          Version.tryParse(to)
              .orElseThrow(
                  () -> new PathException(false, "to \"" + to + "\" is not a semantic version"));
    }
    List<ChannelEntry> steps = new ArrayList<>();
    String fromBundle;
    if (graph.entry(from).isPresent()) {
      fromBundle = from;
      steps.addAll(graph.upgradePath(from, ceiling));
    } else {
      Optional<Version> version = Version.tryParse(from);
      if (version.isEmpty()) {
        throw new PathException(
            true,
            "\"" + from + "\" is neither a bundle of channel " + graph.name() + " nor a version");
      }
      Optional<String> bundle = bundleWithVersion(graph, version.get());
      if (bundle.isPresent()) {
        fromBundle = bundle.get();
        steps.addAll(graph.upgradePath(fromBundle, ceiling));
      } else {
        fromBundle = from;
        Optional<ChannelEntry> first = graph.next(null, version.get(), ceiling);
        if (first.isPresent()) {
          steps.add(first.get());
          steps.addAll(graph.upgradePath(first.get().name(), ceiling));
        }
      }
    }
    JsonArray json = new JsonArray();
    for (ChannelEntry step : steps) {
      json.add(
          new JsonObject()
              .put("bundle", step.name())
              .put("version", graph.versionOf(step.name()).map(Version::toString).orElse("")));
    }
    return new JsonObject().put("from", fromBundle).put("to", to).put("steps", json);
  }

  private static Optional<String> bundleWithVersion(ChannelGraph graph, Version version) {
    for (ChannelEntry e : graph.entries()) {
      if (graph.versionOf(e.name()).filter(v -> v.compareTo(version) == 0).isPresent()) {
        return Optional.of(e.name());
      }
    }
    return Optional.empty();
  }
}
