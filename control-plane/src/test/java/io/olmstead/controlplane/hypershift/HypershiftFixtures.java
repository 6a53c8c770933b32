package io.olmstead.controlplane.hypershift;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The HyperShift data of the shared folder ({@code ../shared/hypershift}); tests skip, saying so, without it. */
public final class HypershiftFixtures {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private HypershiftFixtures() {
  }

  /** The shared hypershift folder, or the test is skipped with a message. */
  public static Path dir() {
    Optional<Path> dir = find();
    assumeTrue(dir.isPresent(), "../shared/hypershift is absent (set -Dolmstead.shared.dir or OLMSTEAD_SHARED_DIR):"
        + " HyperShift tests skipped");
    return dir.get();
  }

  /** A fresh, mutable copy of the example HostedCluster (the first document of the example file). */
  public static Map<String, Object> example() {
    return documents(dir().resolve("example-hostedcluster-with-status.yaml")).get(0);
  }

  public static Path hostedClusterCrd() {
    return dir().resolve("hostedclusters.hypershift.openshift.io.crd.yaml");
  }

  @SuppressWarnings("unchecked")
  public static List<Map<String, Object>> documents(Path file) {
    try (MappingIterator<Map<String, Object>> docs = YAML.readerFor(Map.class).readValues(Files.readString(file))) {
      return (List<Map<String, Object>>) (List<?>) docs.readAll();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> at(Map<String, Object> object, String... path) {
    Map<String, Object> current = object;
    for (String key : path) {
      current = (Map<String, Object>) current.computeIfAbsent(key, k -> new java.util.LinkedHashMap<>());
    }
    return current;
  }

  private static Optional<Path> find() {
    String dir = System.getProperty("olmstead.shared.dir");
    if (dir == null || dir.isBlank()) {
      dir = System.getenv("OLMSTEAD_SHARED_DIR");
    }
    for (Path base : List.of(dir == null || dir.isBlank() ? Path.of("..", "shared") : Path.of(dir),
        Path.of("..", "..", "shared"))) {
      if (Files.isRegularFile(base.resolve("hypershift").resolve("example-hostedcluster-with-status.yaml"))) {
        return Optional.of(base.resolve("hypershift").toAbsolutePath().normalize());
      }
    }
    return Optional.empty();
  }
}
