package io.olmstead.olmcore.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.olmcore.semver.SharedCatalogs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The CRD rules on the real manifests of {@code ../shared/catalogs/bundled}. */
class BundledCrdUpgradeTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Map<String, List<JsonNode>> CRDS = new TreeMap<>();
  private static final Map<String, List<JsonNode>> EXAMPLES = new TreeMap<>();
  private static final List<String[]> EDGES = new ArrayList<>();

  @BeforeAll
  static void load() throws IOException {
    Path bundled = SharedCatalogs.dir().resolve("bundled");
    try (Stream<Path> dirs = Files.list(bundled)) {
      for (Path dir : (Iterable<Path>) dirs::iterator) {
        try (MappingIterator<JsonNode> it =
            MAPPER.readerFor(JsonNode.class).readValues(dir.resolve("catalog.json").toFile())) {
          while (it.hasNext()) {
            index(it.next());
          }
        }
      }
    }
  }

  private static void index(JsonNode blob) throws IOException {
    if (blob.path("schema").asText().equals("olm.channel")) {
      for (JsonNode e : blob.path("entries")) {
        if (e.has("replaces")) {
          EDGES.add(new String[] {e.path("replaces").asText(), e.path("name").asText()});
        }
      }
      return;
    }
    if (!blob.path("schema").asText().equals("olm.bundle")) {
      return;
    }
    List<JsonNode> crds = new ArrayList<>();
    List<JsonNode> examples = new ArrayList<>();
    for (JsonNode p : blob.path("properties")) {
      if (!p.path("type").asText().equals("olm.bundle.object")) {
        continue;
      }
      JsonNode o =
          MAPPER.readTree(Base64.getDecoder().decode(p.path("value").path("data").asText()));
      if (o.path("kind").asText().equals("CustomResourceDefinition")) {
        crds.add(o);
      } else if (o.path("kind").asText().equals("ClusterServiceVersion")) {
        String alm = o.path("metadata").path("annotations").path("alm-examples").asText("");
        if (!alm.isBlank()) {
          MAPPER.readTree(alm).forEach(examples::add);
        }
      }
    }
    CRDS.put(blob.path("name").asText(), crds);
    EXAMPLES.put(blob.path("name").asText(), examples);
  }

  private static List<String> ownExampleErrors(String bundle) {
    List<String> errors = new ArrayList<>();
    for (JsonNode crd : CRDS.get(bundle)) {
      String e = CrdUpgradeCheck.invalidExistingResources(null, crd, EXAMPLES.get(bundle));
      if (e != null) {
        errors.add(e);
      }
    }
    return errors;
  }

  @Test
  void everyRealSchemaCanBeEvaluated() {
    assertThat(CRDS).hasSizeGreaterThan(20);
    CRDS.keySet()
        .forEach(
            bundle ->
                assertThat(ownExampleErrors(bundle))
                    .as(bundle)
                    .noneMatch(e -> e.contains("cannot evaluate")));
  }

  @Test
  void wellFormedExamplesValidateAgainstTheirOwnCrds() {
    CRDS.keySet().stream()
        .filter(
            b ->
                b.startsWith("etcdoperator")
                    || b.startsWith("limitador")
                    || b.startsWith("rabbitmq-cluster"))
        .forEach(bundle -> assertThat(ownExampleErrors(bundle)).as(bundle).isEmpty());
  }

  @Test
  void flagsExamplesThatMissRequiredFields() {
    // dns-operator v0.6.0 DNSRecord: its schema has an RE2 pattern Java must translate ([ inside a
    // class)
    assertThat(ownExampleErrors("dns-operator.v0.6.0"))
        .singleElement()
        .asString()
        .contains("\"dnsrecords.kuadrant.io\"")
        .contains("DNSRecord \"dnsrecord-sample\"")
        .contains("rootHost");
    assertThat(ownExampleErrors("rabbitmq-messaging-topology-operator.v1.19.3"))
        .anyMatch(e -> e.contains("Kind=Queue \"test\"") && e.contains("'name'"));
  }

  @Test
  void noRealUpgradeEdgeDropsAStoredVersion() {
    int checked = 0;
    for (String[] edge : EDGES) {
      if (!CRDS.containsKey(edge[0])) {
        continue; // the tail may replace a bundle that is not in the catalog
      }
      for (JsonNode oldCrd : CRDS.get(edge[0])) {
        for (JsonNode newCrd : CRDS.get(edge[1])) {
          if (oldCrd.path("metadata").path("name").equals(newCrd.path("metadata").path("name"))) {
            checked++;
            assertThat(
                    CrdUpgradeCheck.storedVersionRemovals(
                        withStoredStorageVersions(oldCrd), newCrd))
                .as("%s -> %s", edge[0], edge[1])
                .isEmpty();
          }
        }
      }
    }
    assertThat(checked).isGreaterThan(10);
  }

  @Test
  void droppingTheStorageVersionOfARealCrdIsCaught() {
    JsonNode old = withStoredStorageVersions(CRDS.get("rabbitmq-cluster-operator.v2.22.3").get(0));
    ObjectNode updated = old.deepCopy();
    updated.withArray("/spec/versions").removeAll();
    List<String> errors = CrdUpgradeCheck.storedVersionRemovals(old, updated);
    assertThat(errors).isNotEmpty().allMatch(e -> e.startsWith("risk of data loss updating \""));
  }

  /** Every schema finding on the real upgrade edges, as "from -> to crd id path". */
  private static List<String> realSchemaFindings() {
    List<String> all = new ArrayList<>();
    for (String[] edge : EDGES) {
      if (!CRDS.containsKey(edge[0])) {
        continue;
      }
      for (JsonNode oldCrd : CRDS.get(edge[0])) {
        for (JsonNode newCrd : CRDS.get(edge[1])) {
          if (oldCrd.path("metadata").path("name").equals(newCrd.path("metadata").path("name"))) {
            for (CrdSchemaFinding f : CrdSchemaRules.compare(oldCrd, newCrd)) {
              all.add(
                  edge[0]
                      + " -> "
                      + edge[1]
                      + " "
                      + newCrd.path("metadata").path("name").asText()
                      + " "
                      + f.id()
                      + " "
                      + f.path());
            }
          }
        }
      }
    }
    return all;
  }

  @Test
  void namesTheBreakingSchemaChangesOfRealUpgradeEdges() {
    assertThat(realSchemaFindings())
        .contains(
            "dns-operator.v0.1.0 -> dns-operator.v0.2.0 dnsrecords.kuadrant.io RequiredFieldAdded"
                + " v1alpha1:.spec.managedZone",
            "dns-operator.v0.2.0 -> dns-operator.v0.6.0 dnsrecords.kuadrant.io RequiredFieldAdded"
                + " v1alpha1:.spec.rootHost",
            "dns-operator.v0.2.0 -> dns-operator.v0.6.0 dnsrecords.kuadrant.io FieldRemoved"
                + " v1alpha1:.spec.managedZone",
            "dns-operator.v0.2.0 -> dns-operator.v0.6.0 dnsrecords.kuadrant.io MinLengthRaised"
                + " v1alpha1:.spec.ownerID",
            "dns-operator.v0.2.0 -> dns-operator.v0.6.0 dnsrecords.kuadrant.io MaxLengthLowered"
                + " v1alpha1:.spec.rootHost",
            "limitador-operator.v0.8.0 -> limitador-operator.v0.10.0 limitadors.limitador.kuadrant.io"
                + " FieldRemoved v1alpha1:.spec.storage.redis-cached.options.ttl");
  }

  @Test
  void realCrdsCompareCleanlyWithThemselves() {
    int compared = 0;
    for (List<JsonNode> crds : CRDS.values()) {
      for (JsonNode crd : crds) {
        compared++;
        assertThat(CrdSchemaRules.compare(crd, crd))
            .as(crd.path("metadata").path("name").asText())
            .isEmpty();
      }
    }
    assertThat(compared).isGreaterThan(20);
  }

  /**
   * A cluster records the storage version in status.storedVersions; manifests in bundles have no
   * status.
   */
  private static JsonNode withStoredStorageVersions(JsonNode crd) {
    ObjectNode copy = crd.deepCopy();
    var stored = copy.putObject("status").putArray("storedVersions");
    for (JsonNode v : crd.path("spec").path("versions")) {
      if (v.path("storage").asBoolean()) {
        stored.add(v.path("name").asText());
      }
    }
    return copy;
  }
}
