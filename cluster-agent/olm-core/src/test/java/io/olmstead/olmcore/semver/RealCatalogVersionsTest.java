package io.olmstead.olmcore.semver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every version and range in the real catalogs goes through the strict parsers as blang would judge
 * it.
 */
class RealCatalogVersionsTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static List<JsonNode> blobs() throws IOException {
    Path catalogs = SharedCatalogs.dir();
    List<JsonNode> blobs = new ArrayList<>();
    read(catalogs.resolve("community-v4.20.jsonl"), blobs);
    try (Stream<Path> files = Files.walk(catalogs.resolve("derived-all-history"))) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".json"))::iterator) {
        read(f, blobs);
      }
    }
    return blobs;
  }

  private static void read(Path file, List<JsonNode> into) throws IOException {
    try (MappingIterator<JsonNode> it =
        MAPPER.readerFor(JsonNode.class).readValues(file.toFile())) {
      while (it.hasNext()) {
        into.add(it.next());
      }
    }
  }

  @Test
  void parsesEveryBundleVersionAndEveryRangeExceptLeadingV() throws IOException {
    int versions = 0;
    List<String> badVersions = new ArrayList<>();
    Map<String, String> badRanges = new TreeMap<>();
    int ranges = 0;
    for (JsonNode blob : blobs()) {
      String schema = blob.path("schema").asText();
      if (schema.equals("olm.channel")) {
        for (JsonNode entry : blob.path("entries")) {
          if (entry.has("skipRange")) {
            ranges++;
            tryRange(entry.get("skipRange").asText(), badRanges);
          }
        }
      }
      if (!schema.equals("olm.bundle")) {
        continue;
      }
      for (JsonNode p : blob.path("properties")) {
        String type = p.path("type").asText();
        if (type.equals("olm.package")) {
          versions++;
          String v = p.path("value").path("version").asText();
          if (Version.tryParse(v).isEmpty()) {
            badVersions.add(v);
          }
        } else if (type.equals("olm.package.required")) {
          ranges++;
          tryRange(p.path("value").path("versionRange").asText(), badRanges);
        }
      }
    }
    assertThat(versions).isGreaterThan(7000);
    assertThat(badVersions).isEmpty();
    assertThat(ranges).isGreaterThan(1500);
    // the derived history carries a few skipRanges like "<v1.17.0", which opm rejects too
    assertThat(badRanges)
        .isNotEmpty()
        .allSatisfy(
            (range, message) -> {
              assertThat(range).matches("[<>=!]*v\\d.*");
              assertThat(message).contains("a leading \"v\" is not allowed");
            });
  }

  private static void tryRange(String text, Map<String, String> bad) {
    try {
      VersionRange.parse(text);
    } catch (VersionException e) {
      bad.put(text, e.getMessage());
    }
  }
}
