package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The raw result of parsing a file-based catalog: blobs by schema, unknown schemas kept in {@link
 * #others()}.
 */
public final class DeclarativeConfig {

  private final List<PackageMeta> packages;
  private final List<Channel> channels;
  private final List<Bundle> bundles;
  private final List<Deprecation> deprecations;
  private final List<JsonNode> others;

  public DeclarativeConfig(
      List<PackageMeta> packages,
      List<Channel> channels,
      List<Bundle> bundles,
      List<Deprecation> deprecations,
      List<JsonNode> others) {
    this.packages = List.copyOf(packages);
    this.channels = List.copyOf(channels);
    this.bundles = List.copyOf(bundles);
    this.deprecations = List.copyOf(deprecations);
    this.others = List.copyOf(others);
  }

  public List<PackageMeta> packages() {
    return packages;
  }

  public List<Channel> channels() {
    return channels;
  }

  public List<Bundle> bundles() {
    return bundles;
  }

  public List<Deprecation> deprecations() {
    return deprecations;
  }

  public List<JsonNode> others() {
    return others;
  }
}
