package io.olmstead.agent.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.reconcile.CatalogProvider;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.FbcException;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.ValidationMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The real bundles of {@code ../shared/catalogs/bundled} (system property {@code
 * olmstead.shared.dir}, else env {@code OLMSTEAD_SHARED_DIR}, else {@code ../shared}); tests skip
 * with a message when they are absent.
 */
public final class SharedCatalogs {
  public static final String CATALOG = "community";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static volatile Catalog bundled;

  private SharedCatalogs() {}

  /** The validated bundled catalog, parsed once per JVM. */
  public static synchronized Catalog bundled() {
    if (bundled == null) {
      Path dir = SharedFolder.require("catalogs/bundled");
      try {
        bundled =
            CatalogValidator.validate(new FbcParser().parseDirectory(dir), ValidationMode.LENIENT)
                .catalog()
                .orElseThrow(() -> new IllegalStateException("bundled catalog did not validate"));
      } catch (FbcException e) {
        throw new IllegalStateException("bundled catalog did not parse: " + e.getMessage(), e);
      }
    }
    return bundled;
  }

  /**
   * The bundled catalog with channel {@code from} of {@code packageName} renamed {@code to}
   * (default channel included), for channel names real catalogs use ({@code 3.x}, {@code Stable})
   * that the bundled packages do not.
   */
  public static Catalog withChannelRenamed(String packageName, String from, String to) {
    bundled();
    Path dir = SharedFolder.require("catalogs/bundled");
    try (var paths = Files.walk(dir)) {
      Map<String, byte[]> files = new TreeMap<>();
      for (Path file : paths.filter(Files::isRegularFile).toList()) {
        String rel = dir.relativize(file).toString().replace('\\', '/');
        String text = Files.readString(file);
        if (rel.startsWith(packageName + "/")) {
          text = text.replace("\"" + from + "\"", "\"" + to + "\"");
        }
        files.put(rel, text.getBytes(StandardCharsets.UTF_8));
      }
      return CatalogValidator.validate(new FbcParser().parseFiles(files), ValidationMode.LENIENT)
          .catalog()
          .orElseThrow(() -> new IllegalStateException("renamed catalog did not validate"));
    } catch (IOException | FbcException e) {
      throw new IllegalStateException(
          "bundled catalog could not be rewritten: " + e.getMessage(), e);
    }
  }

  /** A provider serving {@code catalog} under {@link #CATALOG}. */
  public static CatalogProvider provider(Catalog catalog) {
    return (name, digest) -> CATALOG.equals(name) ? Optional.of(catalog) : Optional.empty();
  }

  /**
   * A provider serving package {@code packageName} of {@code catalogs/bundled-plus} under {@link
   * #CATALOG}, with {@code defaultChannel} as its default channel (strimzi's copy names a default
   * channel it does not carry).
   */
  public static CatalogProvider bundledPlus(String packageName, String defaultChannel) {
    Path file = SharedFolder.require("catalogs/bundled-plus/" + packageName + "/catalog.json");
    try {
      String text =
          Files.readString(file)
              .replaceFirst(
                  "\"defaultChannel\"\\s*:\\s*\"[^\"]*\"",
                  "\"defaultChannel\": \"" + defaultChannel + "\"");
      Catalog catalog =
          CatalogValidator.validate(
                  new FbcParser().parse("catalog.json", text.getBytes(StandardCharsets.UTF_8)),
                  ValidationMode.LENIENT)
              .catalog()
              .orElseThrow(() -> new IllegalStateException(packageName + " did not validate"));
      return provider(catalog);
    } catch (IOException | FbcException e) {
      throw new IllegalStateException(packageName + " did not parse: " + e.getMessage(), e);
    }
  }

  /** A provider serving the bundled catalog under {@link #CATALOG}. */
  public static CatalogProvider provider() {
    Catalog catalog = bundled();
    return (name, digest) -> CATALOG.equals(name) ? Optional.of(catalog) : Optional.empty();
  }

  /**
   * The bundled etcd package alone, served under {@link #CATALOG}, with the CRD {@code crd} of
   * bundle {@code bundle} edited by {@code change}: real bundles whose CRDs differ the way a test
   * needs (etcd's never change).
   */
  public static CatalogProvider etcdWithCrd(
      String bundle, String crd, Consumer<ObjectNode> change) {
    return etcdWithObjects(
        bundle,
        manifests ->
            manifests.stream()
                .filter(
                    m ->
                        "CustomResourceDefinition".equals(m.path("kind").asText())
                            && crd.equals(m.path("metadata").path("name").asText()))
                .forEach(change));
  }

  /**
   * The bundled etcd package alone, served under {@link #CATALOG}, with the manifests ({@code
   * olm.bundle.object}s, the CSV among them) of bundle {@code bundle} edited by {@code change},
   * which may also add or remove some.
   */
  public static CatalogProvider etcdWithObjects(String bundle, Consumer<List<ObjectNode>> change) {
    Path file = SharedFolder.require("catalogs/bundled/etcd/catalog.json");
    StringBuilder out = new StringBuilder();
    try (MappingIterator<ObjectNode> blobs =
        JSON.readerFor(ObjectNode.class).readValues(Files.readAllBytes(file))) {
      while (blobs.hasNext()) {
        ObjectNode blob = blobs.next();
        if ("olm.bundle".equals(blob.path("schema").asText())
            && bundle.equals(blob.path("name").asText())) {
          editObjects(blob, change);
        }
        out.append(JSON.writeValueAsString(blob)).append('\n');
      }
      Catalog catalog =
          CatalogValidator.validate(
                  new FbcParser()
                      .parse("catalog.json", out.toString().getBytes(StandardCharsets.UTF_8)),
                  ValidationMode.LENIENT)
              .catalog()
              .orElseThrow();
      return (name, digest) -> CATALOG.equals(name) ? Optional.of(catalog) : Optional.empty();
    } catch (IOException | FbcException e) {
      throw new IllegalStateException("edited etcd catalog did not parse: " + e.getMessage(), e);
    }
  }

  private static void editObjects(ObjectNode blob, Consumer<List<ObjectNode>> change)
      throws IOException {
    List<ObjectNode> manifests = new ArrayList<>();
    ArrayNode properties = JSON.createArrayNode();
    for (JsonNode property : blob.path("properties")) {
      if ("olm.bundle.object".equals(property.path("type").asText())) {
        manifests.add(
            (ObjectNode)
                JSON.readTree(
                    Base64.getDecoder().decode(property.path("value").path("data").asText())));
      } else {
        properties.add(property);
      }
    }
    change.accept(manifests);
    for (ObjectNode manifest : manifests) {
      ObjectNode property = properties.addObject().put("type", "olm.bundle.object");
      property
          .putObject("value")
          .put("data", Base64.getEncoder().encodeToString(JSON.writeValueAsBytes(manifest)));
    }
    blob.set("properties", properties);
  }

  /** The shared directory ({@link SharedFolder#root()}); it may not exist. */
  public static Path sharedDir() {
    return SharedFolder.root();
  }
}
