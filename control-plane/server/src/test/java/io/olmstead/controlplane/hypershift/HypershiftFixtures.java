package io.olmstead.controlplane.hypershift;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.olmstead.controlplane.testsupport.SharedFolder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The HyperShift data of the shared folder ({@code ../shared/hypershift}); tests skip, saying so,
 * without it.
 */
public final class HypershiftFixtures {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private HypershiftFixtures() {}

  /** The shared hypershift folder, or the test is skipped with a message. */
  public static Path dir() {
    return SharedFolder.require("hypershift/example-hostedcluster-with-status.yaml").getParent();
  }

  /**
   * A fresh, mutable copy of the example HostedCluster (the first document of the example file).
   */
  public static Map<String, Object> example() {
    return documents(dir().resolve("example-hostedcluster-with-status.yaml")).get(0);
  }

  public static Path hostedClusterCrd() {
    return dir().resolve("hostedclusters.hypershift.openshift.io.crd.yaml");
  }

  @SuppressWarnings("unchecked")
  public static List<Map<String, Object>> documents(Path file) {
    try (MappingIterator<Map<String, Object>> docs =
        YAML.readerFor(Map.class).readValues(Files.readString(file))) {
      return (List<Map<String, Object>>) (List<?>) docs.readAll();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> at(Map<String, Object> object, String... path) {
    Map<String, Object> current = object;
    for (String key : path) {
      current =
          (Map<String, Object>) current.computeIfAbsent(key, k -> new java.util.LinkedHashMap<>());
    }
    return current;
  }
}
