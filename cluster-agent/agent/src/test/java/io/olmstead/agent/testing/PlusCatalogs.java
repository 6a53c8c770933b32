package io.olmstead.agent.testing;

import io.olmstead.agent.reconcile.CatalogProvider;
import io.olmstead.agent.reconcile.SubscriptionToReconcile;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.FbcException;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.ValidationMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The bundles of {@code shared/catalogs/bundled} and {@code bundled-plus} together (cert-manager,
 * kepler and the rest beside the bundled ones), served under {@link SharedCatalogs#CATALOG}; tests
 * skip when absent.
 */
public final class PlusCatalogs {
  private static volatile Catalog both;

  private PlusCatalogs() {}

  public static synchronized CatalogProvider provider() {
    if (both == null) {
      SharedFolder.require("catalogs/bundled");
      Path catalogs = SharedFolder.require("catalogs/bundled-plus").getParent();
      try {
        Map<String, byte[]> files = new TreeMap<>();
        for (String dir : List.of("bundled", "bundled-plus")) {
          try (Stream<Path> paths = Files.walk(catalogs.resolve(dir))) {
            for (Path file : paths.filter(Files::isRegularFile).toList()) {
              files.put(
                  dir + "/" + catalogs.resolve(dir).relativize(file), Files.readAllBytes(file));
            }
          }
        }
        both =
            CatalogValidator.validate(new FbcParser().parseFiles(files), ValidationMode.LENIENT)
                .catalog()
                .orElseThrow(
                    () -> new IllegalStateException("bundled-plus catalog did not validate"));
      } catch (IOException | FbcException e) {
        throw new IllegalStateException("bundled-plus catalog did not parse: " + e.getMessage(), e);
      }
    }
    Catalog catalog = both;
    return (name, digest) ->
        SharedCatalogs.CATALOG.equals(name) ? Optional.of(catalog) : Optional.empty();
  }

  /** An automatic subscription watching all namespaces (what cert-manager and kepler support). */
  public static SubscriptionToReconcile allNamespaces(
      String name, String packageName, String channel, String namespace, String maxVersion) {
    return new SubscriptionToReconcile(
        name,
        SharedCatalogs.CATALOG,
        null,
        packageName,
        channel,
        namespace,
        List.of(""),
        SubscriptionToReconcile.Approval.AUTOMATIC,
        null,
        maxVersion,
        null,
        false,
        1,
        null);
  }
}
