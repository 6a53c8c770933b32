package io.olmstead.olmcore.fbc;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A validated, indexed catalog: packages by name, each with its usable channel graphs and bundles.
 */
public final class Catalog {

  private final Map<String, CatalogPackage> packages;
  private final int channelCount;
  private final int bundleCount;

  public Catalog(Collection<CatalogPackage> packages) {
    Map<String, CatalogPackage> m = new LinkedHashMap<>();
    int ch = 0;
    int b = 0;
    for (CatalogPackage p : packages) {
      m.put(p.name(), p);
      ch += p.channels().size();
      b += p.bundles().size();
    }
    this.packages = Collections.unmodifiableMap(m);
    this.channelCount = ch;
    this.bundleCount = b;
  }

  public Collection<CatalogPackage> packages() {
    return packages.values();
  }

  public Optional<CatalogPackage> pkg(String name) {
    return Optional.ofNullable(name == null ? null : packages.get(name));
  }

  public Optional<Bundle> bundle(String packageName, String bundleName) {
    return pkg(packageName).flatMap(p -> p.bundle(bundleName));
  }

  public int packageCount() {
    return packages.size();
  }

  public int channelCount() {
    return channelCount;
  }

  public int bundleCount() {
    return bundleCount;
  }
}
