package io.olmstead.olmcore.fbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RealCatalogTest {

  private final FbcParser parser = new FbcParser();
  private static DeclarativeConfig derived;
  private static DeclarativeConfig communityYaml;
  private static DeclarativeConfig communityJsonl;

  private DeclarativeConfig communityYaml() throws FbcException {
    if (communityYaml == null) {
      communityYaml = parser.parseDirectory(SharedCatalogs.require("community-v4.20"));
    }
    return communityYaml;
  }

  private DeclarativeConfig communityJsonl() throws Exception {
    if (communityJsonl == null) {
      Path jsonl = SharedCatalogs.require("community-v4.20.jsonl");
      communityJsonl = parser.parse(jsonl.getFileName().toString(), Files.readAllBytes(jsonl));
    }
    return communityJsonl;
  }

  /** The derived catalog is the largest input: parsed once for both modes. */
  private DeclarativeConfig derived() throws FbcException {
    if (derived == null) {
      derived = parser.parseDirectory(SharedCatalogs.require("derived-all-history"));
    }
    return derived;
  }

  @Test
  void communityYamlDirectoryParsesAndValidatesCleanInStrictMode() throws Exception {
    DeclarativeConfig cfg = communityYaml();
    ValidationResult r = CatalogValidator.validate(cfg, ValidationMode.STRICT);

    assertThat(r.errors()).isEmpty();
    Catalog c = r.catalog().orElseThrow();
    assertThat(c.packageCount()).isEqualTo(37);
    assertThat(c.channelCount()).isEqualTo(85);
    assertThat(c.bundleCount()).isEqualTo(803);
    assertEveryChannelHeadExists(c);
  }

  @Test
  void communityJsonlGivesTheSameCatalogAsTheYamlDirectory() throws Exception {
    DeclarativeConfig cfg = communityJsonl();
    ValidationResult r = CatalogValidator.validate(cfg, ValidationMode.STRICT);

    assertThat(r.errors()).isEmpty();
    Catalog c = r.catalog().orElseThrow();
    assertThat(c.packageCount()).isEqualTo(37);
    assertThat(c.channelCount()).isEqualTo(85);
    assertThat(c.bundleCount()).isEqualTo(803);
    assertThat(cfg.channels().stream().mapToInt(ch -> ch.entries().size()).sum()).isEqualTo(929);
    assertEveryChannelHeadExists(c);
  }

  @Test
  void yamlAndJsonlCarryTheSameBlobsIncludingUnquotedTimestampsAsText() throws Exception {
    java.util.Map<String, Bundle> fromJson =
        communityJsonl().bundles().stream()
            .collect(Collectors.toMap(b -> b.packageName() + "/" + b.name(), b -> b));

    assertThat(communityYaml().bundles())
        .hasSize(fromJson.size())
        .allSatisfy(
            y -> {
              Bundle j = fromJson.get(y.packageName() + "/" + y.name());
              assertThat(j).isNotNull();
              assertThat(y.image()).isEqualTo(j.image());
              assertThat(y.properties()).isEqualTo(j.properties());
              assertThat(y.relatedImages()).isEqualTo(j.relatedImages());
            });
    assertThat(communityYaml().channels())
        .containsExactlyInAnyOrderElementsOf(communityJsonl().channels());
    assertThat(communityYaml().packages())
        .containsExactlyInAnyOrderElementsOf(communityJsonl().packages());
  }

  @Test
  void derivedHistoryIsRejectedInStrictMode() throws Exception {
    DeclarativeConfig cfg = derived();
    ValidationResult r = CatalogValidator.validate(cfg, ValidationMode.STRICT);

    assertThat(r.catalog()).isEmpty();
    assertThat(r.errors()).isNotEmpty().allSatisfy(i -> assertThat(i.packageName()).isNotNull());
  }

  @Test
  void derivedHistoryInLenientModeReportsItsInvalidChannelsAndKeepsTheRest() throws Exception {
    DeclarativeConfig cfg = derived();
    ValidationResult r = CatalogValidator.validate(cfg, ValidationMode.LENIENT);

    assertThat(r.errors()).isEmpty();
    Set<String> invalidChannels = channelsWith(r, "");
    // README: 12 channels with stranded bundles; 5 more carry skipRanges with a leading "v"
    // ("<v2.3.1"),
    // which blang rejects, so upstream rejects those channels too.
    assertThat(channelsWith(r, "channel contains one or more stranded bundles")).hasSize(12);
    assertThat(channelsWith(r, "(a leading \"v\" is not allowed)")).hasSize(5);
    assertThat(invalidChannels).hasSize(17);
    assertThat(r.warnings()).allSatisfy(i -> assertThat(i.channel()).isNotNull());
    Catalog c = r.catalog().orElseThrow();
    assertThat(c.packageCount()).isEqualTo(333);
    assertThat(c.channelCount()).isEqualTo(654 - 17);
    for (String pc : invalidChannels) {
      String[] parts = pc.split("/");
      assertThat(c.pkg(parts[0]).orElseThrow().channels()).doesNotContainKey(parts[1]);
    }
    for (CatalogPackage p : c.packages()) {
      for (ChannelGraph g : p.channels().values()) {
        assertThat(g.errors()).isEmpty();
        assertThat(p.bundle(g.head().orElseThrow())).isPresent();
      }
    }
  }

  @Test
  void realCatalogsDecodeTheTypedPropertiesAndIcons() throws Exception {
    java.util.List<Bundle> derivedBundles = derived().bundles();
    assertThat(derivedBundles.stream().filter(b -> b.maxOpenShiftVersion().isPresent()).count())
        .isEqualTo(550);
    assertThat(
            derivedBundles.stream()
                .flatMap(b -> b.maxOpenShiftVersion().stream())
                .map(Object::toString))
        .contains("4.8", "4.10", "4.22");
    Bundle dbaas =
        derivedBundles.stream()
            .filter(b -> b.name().equals("dbaas-operator.v0.5.0"))
            .findFirst()
            .orElseThrow();
    assertThat(dbaas.constraints())
        .singleElement()
        .isInstanceOfSatisfying(
            Constraint.Any.class,
            any -> {
              assertThat(any.failureMessage()).isEqualTo("Service Binding Operator is required");
              assertThat(any.constraints())
                  .extracting(c -> ((Constraint.PackageConstraint) c).requirement().packageName())
                  .containsExactly("rh-service-binding-operator", "service-binding-operator");
            });

    DeclarativeConfig community = communityJsonl();
    assertThat(community.packages().stream().filter(p -> p.icon() != null))
        .hasSize(27)
        .allSatisfy(p -> assertThat(p.icon().decode()).isNotEmpty());
    assertThat(community.bundles())
        .allSatisfy(
            b -> {
              CsvMetadata m = b.csvMetadata().orElseThrow();
              assertThat(m.displayName()).as(b.name()).isNotBlank();
              assertThat(m.installModes()).as(b.name()).isNotEmpty();
              assertThat(b.packageProperty())
                  .map(PackageProperty::packageName)
                  .contains(b.packageName());
            });
  }

  private static Set<String> channelsWith(ValidationResult r, String text) {
    return r.warnings().stream()
        .filter(i -> i.channel() != null && i.message().contains(text))
        .map(i -> i.packageName() + "/" + i.channel())
        .collect(Collectors.toSet());
  }

  @Test
  void bundledCatalogValidatesAndKeepsItsEmbeddedObjects() throws Exception {
    DeclarativeConfig cfg = parser.parseDirectory(SharedCatalogs.require("bundled"));
    Catalog c = CatalogValidator.validate(cfg, ValidationMode.STRICT).catalog().orElseThrow();

    assertThat(c.packageCount()).isEqualTo(5);
    assertThat(c.bundleCount()).isEqualTo(29);
    Bundle b = c.pkg("etcd").orElseThrow().bundles().iterator().next();
    assertThat(b.objects()).isNotEmpty();
    assertThat(b.objects())
        .anySatisfy(o -> assertThat(o.kind()).isEqualTo("ClusterServiceVersion"));
  }

  private static void assertEveryChannelHeadExists(Catalog c) {
    for (CatalogPackage p : c.packages()) {
      assertThat(p.channel(null)).as("default channel of %s", p.name()).isPresent();
      for (ChannelGraph g : p.channels().values()) {
        assertThat(g.errors()).isEmpty();
        String head = g.head().orElseThrow();
        assertThat(p.bundle(head)).as("head %s of %s/%s", head, p.name(), g.name()).isPresent();
      }
    }
  }
}
