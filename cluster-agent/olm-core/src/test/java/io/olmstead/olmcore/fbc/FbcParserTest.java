package io.olmstead.olmcore.fbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FbcParserTest {

  static final String PACKAGE_JSON =
      "{\"schema\":\"olm.package\",\"name\":\"foo\",\"defaultChannel\":\"alpha\"}";
  static final String CHANNEL_JSON =
      "{\"schema\":\"olm.channel\",\"package\":\"foo\",\"name\":\"alpha\","
          + "\"entries\":[{\"name\":\"foo.v0.1.0\"},{\"name\":\"foo.v0.2.0\",\"replaces\":\"foo.v0.1.0\","
          + "\"skips\":[\"foo.v0.1.1\"],\"skipRange\":\"<0.2.0\"}]}";
  static final String BUNDLE_JSON =
      "{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v0.1.0\","
          + "\"image\":\"quay.io/foo:v0.1.0\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"foo\","
          + "\"version\":\"0.1.0\"}},{\"type\":\"olm.gvk\",\"value\":{\"group\":\"foo.io\",\"version\":\"v1\",\"kind\":\"Foo\"}},"
          + "{\"type\":\"olm.package.required\",\"value\":{\"packageName\":\"bar\",\"versionRange\":\">=1.0.0\"}},"
          + "{\"type\":\"olm.gvk.required\",\"value\":{\"group\":\"bar.io\",\"version\":\"v1\",\"kind\":\"Bar\"}},"
          + "{\"type\":\"example.com/custom\",\"value\":[1,2]}],"
          + "\"relatedImages\":[{\"name\":\"op\",\"image\":\"quay.io/foo-op:v0.1.0\"}]}";
  static final String UNKNOWN_JSON = "{\"schema\":\"example.com/thing\",\"name\":\"x\"}";

  private final FbcParser parser = new FbcParser();

  @Test
  void readsAJsonObjectStreamAndTypesEveryBlob() throws Exception {
    String stream =
        PACKAGE_JSON + "\n\n  " + CHANNEL_JSON.replace(",", ",\n   ") + BUNDLE_JSON + UNKNOWN_JSON;

    DeclarativeConfig cfg = parser.parse("catalog.json", bytes(stream));

    assertThat(cfg.packages()).containsExactly(new PackageMeta("foo", "alpha", null));
    assertThat(cfg.channels())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.entries()).hasSize(2);
              assertThat(c.entries().get(1))
                  .isEqualTo(
                      new ChannelEntry(
                          "foo.v0.2.0", "foo.v0.1.0", java.util.List.of("foo.v0.1.1"), "<0.2.0"));
              assertThat(c.entries().get(0).skips()).isEmpty();
            });
    Bundle b = cfg.bundles().get(0);
    assertThat(b.versionText()).isEqualTo("0.1.0");
    assertThat(b.version()).map(Object::toString).contains("0.1.0");
    assertThat(b.providedGvks()).containsExactly(new Gvk("foo.io", "v1", "Foo"));
    assertThat(b.requiredGvks()).containsExactly(new Gvk("bar.io", "v1", "Bar"));
    assertThat(b.requiredPackages()).containsExactly(new PackageRequirement("bar", ">=1.0.0"));
    assertThat(b.properties()).extracting(Property::type).contains("example.com/custom");
    assertThat(b.relatedImages()).containsExactly(new RelatedImage("op", "quay.io/foo-op:v0.1.0"));
    assertThat(cfg.others())
        .singleElement()
        .extracting(n -> n.get("schema").asText())
        .isEqualTo("example.com/thing");
  }

  @Test
  void readsJsonLinesLikeAStream() throws Exception {
    String lines = String.join("\n", PACKAGE_JSON, CHANNEL_JSON, BUNDLE_JSON) + "\n";

    DeclarativeConfig cfg = parser.parse("catalog.jsonl", bytes(lines));

    assertThat(cfg.packages()).hasSize(1);
    assertThat(cfg.channels()).hasSize(1);
    assertThat(cfg.bundles()).hasSize(1);
  }

  @Test
  void readsYamlMultiDocumentStreamsAndKeepsTimestampsAsText() throws Exception {
    String yaml =
        """
            ---
            schema: olm.package
            name: foo
            defaultChannel: alpha
            ---
            ---
            schema: olm.bundle
            package: foo
            name: foo.v0.1.0
            image: quay.io/foo:v0.1.0
            properties:
            - type: olm.package
              value: {packageName: foo, version: 0.1.0}
            - type: olm.csv.metadata
              value:
                annotations:
                  createdAt: 2021-01-01T00:00:00Z
                  otherDate: 2021-01-01
                  spaced: 2001-12-14 21:59:43.10 -5
                displayName: Foo
            """;

    DeclarativeConfig cfg = parser.parse("catalog.yaml", bytes(yaml));

    assertThat(cfg.packages()).hasSize(1);
    JsonNode annotations =
        cfg.bundles().get(0).csvMetadata().orElseThrow().raw().get("annotations");
    assertThat(annotations.get("createdAt").isTextual()).isTrue();
    assertThat(annotations.get("createdAt").textValue()).isEqualTo("2021-01-01T00:00:00Z");
    assertThat(annotations.get("otherDate").textValue()).isEqualTo("2021-01-01");
    assertThat(annotations.get("spaced").textValue()).isEqualTo("2001-12-14 21:59:43.10 -5");
  }

  @Test
  void detectsTheFormatFromContentWhenTheNameSaysNothing() throws Exception {
    assertThat(parser.parse("blob", bytes(PACKAGE_JSON)).packages()).hasSize(1);
    assertThat(parser.parse("blob", bytes("schema: olm.package\nname: foo\n")).packages())
        .hasSize(1);
  }

  @Test
  void malformedJsonNamesFileLineAndColumn() {
    String broken = PACKAGE_JSON + "\n" + "{\"schema\": \"olm.channel\",\n  \"name\": oops}\n";

    FbcException e =
        catchThrowableOfType(
            FbcException.class, () -> parser.parse("pkg/catalog.json", bytes(broken)));

    assertThat(e.file()).isEqualTo("pkg/catalog.json");
    assertThat(e.line()).isEqualTo(3);
    assertThat(e.column()).isEqualTo(11);
    assertThat(e.getMessage()).startsWith("pkg/catalog.json:3:11: malformed catalog");
  }

  @Test
  void malformedYamlNamesFileLineAndColumn() {
    String broken =
        "schema: olm.package\nname: foo\n---\nschema: olm.channel\nentries: [a, b\nname: x\n";

    FbcException e =
        catchThrowableOfType(FbcException.class, () -> parser.parse("c.yaml", bytes(broken)));

    assertThat(e.file()).isEqualTo("c.yaml");
    assertThat(e.line()).isGreaterThanOrEqualTo(5);
    assertThat(e.column()).isPositive();
  }

  @Test
  void rejectsBlobsWithoutSchemaOrThatAreNotObjects() {
    assertThatThrownBy(() -> parser.parse("a.json", bytes("{\"name\":\"x\"}")))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("a.json:1:1")
        .hasMessageContaining("schema");
    assertThatThrownBy(() -> parser.parse("a.json", bytes("[1,2]")))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("expected a JSON object");
    assertThatThrownBy(() -> parser.parse("a.yaml", bytes("just text")))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("expected an object");
  }

  @Test
  void rejectsWronglyTypedFieldsOfKnownSchemas() {
    String bad =
        "{\"schema\":\"olm.channel\",\"package\":\"foo\",\"name\":\"alpha\",\"entries\":\"nope\"}";

    assertThatThrownBy(() -> parser.parse("a.json", bytes(bad)))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("invalid olm.channel blob \"alpha\"")
        .hasMessageContaining("\"entries\" must be an array");
  }

  @Test
  void rejectsAYamlAliasBomb() {
    StringBuilder y =
        new StringBuilder(
            "schema: x\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    char prev = 'a';
    for (char c = 'b'; c <= 'i'; c++) {
      y.append(c).append(": &").append(c).append(" [");
      for (int i = 0; i < 9; i++) {
        y.append(i == 0 ? "" : ",").append('*').append(prev);
      }
      y.append("]\n");
      prev = c;
    }

    assertThatThrownBy(() -> parser.parse("bomb.yaml", bytes(y.toString())))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("aliases exceeds the limit of 50");
  }

  @Test
  void rejectsAnAliasExpansionTooLargeEvenWithFewAliases() {
    StringBuilder y = new StringBuilder("schema: x\na0: &a0 [1,2,3,4,5,6,7,8,9,10]\n");
    for (int i = 1; i <= 24; i++) {
      y.append("a")
          .append(i)
          .append(": &a")
          .append(i)
          .append(" [*a")
          .append(i - 1)
          .append(", *a")
          .append(i - 1)
          .append("]\n");
    }
    FbcParser tight = new FbcParser(new ParseLimits(64 * 1024, ParseLimits.MIB, 50, 100));

    assertThatThrownBy(() -> tight.parse("doubling.yaml", bytes(y.toString())))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("expands to more than");
  }

  @Test
  void expandsAFewAliasesLikeUpstream() throws Exception {
    String yaml = "schema: example.com/x\nbase: &b {k: v}\ncopy: *b\n";

    JsonNode node = parser.parse("a.yaml", bytes(yaml)).others().get(0);

    assertThat(node.get("copy")).isEqualTo(node.get("base"));
    assertThat(node.get("copy").get("k").asText()).isEqualTo("v");
  }

  @Test
  void rejectsDeepNestingInYamlAndJson() {
    String deepYaml = "schema: x\nv: " + "[".repeat(150) + "]".repeat(150) + "\n";
    String deepJson = "{\"schema\":\"x\",\"v\":" + "[".repeat(150) + "]".repeat(150) + "}";

    assertThatThrownBy(() -> parser.parse("deep.yaml", bytes(deepYaml)))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("depth");
    assertThatThrownBy(() -> parser.parse("deep.json", bytes(deepJson)))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("depth");
  }

  @Test
  void rejectsDuplicateYamlKeys() {
    assertThatThrownBy(
            () -> parser.parse("d.yaml", bytes("schema: olm.package\nname: a\nname: b\n")))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("Duplicate field 'name'")
        .satisfies(e -> assertThat(((FbcException) e).line()).isEqualTo(3));
  }

  @Test
  void enforcesBlobAndTotalSizeLimits() {
    FbcParser small = new FbcParser(new ParseLimits(40, 200, 50, 100));
    String big = "{\"schema\":\"example.com/x\",\"data\":\"" + "x".repeat(60) + "\"}";

    assertThatThrownBy(() -> small.parse("a.json", bytes(big)))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("exceeds")
        .hasMessageContaining("40");
    String manyFields = "{\"schema\":\"example.com/x\",\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5}";
    assertThatThrownBy(() -> small.parse("b.json", bytes(manyFields)))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("b.json:1:1: blob of 56 bytes exceeds the limit of 40");
    assertThatThrownBy(
            () -> small.parseFiles(Map.of("a.json", new byte[150], "b.json", new byte[150])))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("total size limit");
  }

  @Test
  void decodesBundleObjectsLazilyFromJsonOrYaml() throws Exception {
    String json =
        b64("{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"svc\"}}");
    String yaml =
        b64(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: foos.foo.io\n");
    String blob =
        "{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v0.1.0\",\"properties\":["
            + "{\"type\":\"olm.bundle.object\",\"value\":{\"data\":\""
            + json
            + "\"}},"
            + "{\"type\":\"olm.bundle.object\",\"value\":{\"data\":\""
            + yaml
            + "\"}},"
            + "{\"type\":\"olm.bundle.object\",\"value\":{\"data\":\"!!!not-base64\"}}]}";

    Bundle b = parser.parse("b.json", bytes(blob)).bundles().get(0);

    assertThat(b.objects()).hasSize(3);
    assertThat(b.objects().get(0).kind()).isEqualTo("Service");
    assertThat(b.objects().get(0).name()).isEqualTo("svc");
    assertThat(b.objects().get(1).kind()).isEqualTo("CustomResourceDefinition");
    assertThat(b.objects().get(1).manifest()).isSameAs(b.objects().get(1).manifest());
    assertThat(b.objects().get(2).kind()).isNull();
    assertThatThrownBy(() -> b.objects().get(2).manifest()).isInstanceOf(FbcException.class);
  }

  @Test
  void defersCsvMetadataInJsonAndDecodesItOnDemand() throws Exception {
    String meta =
        "{\"displayName\":\"Foo\",\"annotations\":{\"createdAt\":\"2021-01-01T00:00:00Z\"},\"keywords\":[\"a\"]}";
    String typeFirst =
        "{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v0.1.0\",\"properties\":["
            + "{\"type\":\"olm.csv.metadata\",\"value\":"
            + meta
            + "}]}";
    String valueFirst =
        "{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v0.2.0\",\"properties\":["
            + "{\"value\":"
            + meta
            + ",\"type\":\"olm.csv.metadata\"}]}";
    String unknown =
        "{\"schema\":\"example.com/x\",\"properties\":[{\"type\":\"olm.csv.metadata\",\"value\":"
            + meta
            + "}]}";

    DeclarativeConfig cfg = parser.parse("c.json", bytes(typeFirst + valueFirst + unknown));

    JsonNode expected = Fixtures.JSON.readTree(meta);
    assertThat(cfg.bundles())
        .allSatisfy(
            b -> {
              assertThat(b.csvMetadata()).map(CsvMetadata::raw).contains(expected);
              assertThat(b.properties())
                  .singleElement()
                  .isEqualTo(new Property("olm.csv.metadata", expected));
            });
    assertThat(cfg.others().get(0).get("properties").get(0).get("value")).isEqualTo(expected);
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String b64(String s) {
    return Base64.getEncoder().encodeToString(bytes(s));
  }
}
