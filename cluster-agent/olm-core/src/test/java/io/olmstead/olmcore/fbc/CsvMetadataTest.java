package io.olmstead.olmcore.fbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code olm.csv.metadata}: typed fields, and shape checks that hold with and without the JSON
 * reader's deferral.
 */
class CsvMetadataTest {

  static final String FULL =
      "{\"displayName\":\"Foo Operator\",\"description\":\"Runs foo.\",\"keywords\":[\"foo\",\"db\"],"
          + "\"maintainers\":[{\"name\":\"Ann\",\"email\":\"ann@example.com\"}],\"provider\":{\"name\":\"Acme\",\"url\":\"https://acme.io\"},"
          + "\"links\":[{\"name\":\"Docs\",\"url\":\"https://docs.acme.io\"}],\"maturity\":\"stable\",\"minKubeVersion\":\"1.25.0\","
          + "\"annotations\":{\"capabilities\":\"Seamless Upgrades\",\"categories\":\"Database, Storage\","
          + "\"features.operators.openshift.io/disconnected\":\"true\",\"createdAt\":\"2021-01-01T00:00:00Z\"},"
          + "\"labels\":{\"operatorframework.io/arch.amd64\":\"supported\"},"
          + "\"installModes\":[{\"type\":\"OwnNamespace\",\"supported\":true},{\"type\":\"AllNamespaces\",\"supported\":false}],"
          + "\"crdDescriptions\":{\"owned\":[{\"name\":\"foos.acme.io\",\"version\":\"v1\",\"kind\":\"Foo\"}]},"
          + "\"nativeAPIs\":[{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"}],\"somethingNew\":{\"kept\":[1,2]}}";

  private final FbcParser parser = new FbcParser();

  @Test
  void readsTheCommonFieldsAndKeepsTheRestRaw() throws Exception {
    CsvMetadata m = parseFoo("catalog.json", FULL).bundles().get(0).csvMetadata().orElseThrow();

    assertThat(m.displayName()).isEqualTo("Foo Operator");
    assertThat(m.description()).isEqualTo("Runs foo.");
    assertThat(m.keywords()).containsExactly("foo", "db");
    assertThat(m.maintainers())
        .containsExactly(new CsvMetadata.Maintainer("Ann", "ann@example.com"));
    assertThat(m.provider()).isEqualTo(new CsvMetadata.AppLink("Acme", "https://acme.io"));
    assertThat(m.links()).containsExactly(new CsvMetadata.AppLink("Docs", "https://docs.acme.io"));
    assertThat(m.maturity()).isEqualTo("stable");
    assertThat(m.minKubeVersion()).isEqualTo("1.25.0");
    assertThat(m.labels()).containsEntry("operatorframework.io/arch.amd64", "supported");
    assertThat(m.installModes())
        .containsExactly(
            new CsvMetadata.InstallMode("OwnNamespace", true),
            new CsvMetadata.InstallMode("AllNamespaces", false));
    assertThat(m.supports("OwnNamespace")).isTrue();
    assertThat(m.supports("AllNamespaces")).isFalse();
    assertThat(m.capabilities()).isEqualTo("Seamless Upgrades");
    assertThat(m.categories()).containsExactly("Database", "Storage");
    assertThat(m.features()).isEqualTo(Map.of("disconnected", "true"));
    assertThat(m.annotation("createdAt")).isEqualTo("2021-01-01T00:00:00Z");
    assertThat(m.raw().get("crdDescriptions").get("owned").get(0).get("kind").asText())
        .isEqualTo("Foo");
    assertThat(m.raw().get("somethingNew")).isNotNull();
  }

  @Test
  void jsonAndYamlGiveTheSameTypedValue() throws Exception {
    Bundle json = parseFoo("catalog.json", FULL).bundles().get(0);
    Bundle yaml = parseFoo("catalog.yaml", FULL).bundles().get(0);

    assertThat(json.csvMetadata()).isEqualTo(yaml.csvMetadata()).isPresent();
    assertThat(json.csvMetadata().orElseThrow()).isSameAs(json.csvMetadata().orElseThrow());
  }

  @Test
  void anAbsentOrEmptyValueReadsAsEmptyFields() {
    CsvMetadata empty = CsvMetadata.of(Fixtures.JSON.createObjectNode());

    assertThat(empty.displayName()).isNull();
    assertThat(empty.keywords()).isEmpty();
    assertThat(empty.annotations()).isEmpty();
    assertThat(empty.categories()).isEmpty();
    assertThat(empty.provider()).isNull();
    assertThat(Fixtures.fooWith().csvMetadata()).isEmpty();
  }

  static Stream<Arguments> malformedMetadata() {
    return Stream.of(
        Arguments.of("{\"keywords\":\"a\"}", "field \"keywords\" must be an array"),
        Arguments.of("{\"keywords\":[\"a\",1]}", "field \"keywords[1]\" must be a string"),
        Arguments.of(
            "{\"annotations\":{\"certified\":false}}",
            "field \"annotations.certified\" must be a string"),
        Arguments.of("{\"annotations\":[\"a\"]}", "field \"annotations\" must be an object"),
        Arguments.of("{\"labels\":{\"a\":{\"b\":\"c\"}}}", "field \"labels.a\" must be a string"),
        Arguments.of(
            "{\"displayName\":{\"en\":\"Foo\"}}", "field \"displayName\" must be a string"),
        Arguments.of("{\"minKubeVersion\":1.25}", "field \"minKubeVersion\" must be a string"),
        Arguments.of(
            "{\"maintainers\":[{\"name\":\"a\",\"email\":7}]}",
            "field \"maintainers[0].email\" must be a string"),
        Arguments.of("{\"maintainers\":[\"a\"]}", "field \"maintainers[0]\" must be an object"),
        Arguments.of("{\"provider\":\"Acme\"}", "field \"provider\" must be an object"),
        Arguments.of(
            "{\"links\":[{\"name\":\"a\"},{\"url\":[]}]}",
            "field \"links[1].url\" must be a string"),
        Arguments.of(
            "{\"installModes\":[{\"type\":\"OwnNamespace\",\"supported\":\"yes\"}]}",
            "field \"installModes[0].supported\" must be a boolean"),
        Arguments.of(
            "{\"installModes\":{\"type\":\"OwnNamespace\"}}",
            "field \"installModes\" must be an array"),
        Arguments.of("{\"crdDescriptions\":[]}", "field \"crdDescriptions\" must be an object"),
        Arguments.of("{\"nativeAPIs\":[1]}", "field \"nativeAPIs[0]\" must be an object"),
        Arguments.of(
            "{\"description\":\"ok\",\"keywords\":1,\"provider\":\"x\"}",
            "field \"keywords\" must be an array"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedMetadata")
  void refusesAMalformedValueInJsonAndYamlAlike(String value, String expected) throws Exception {
    for (String file : List.of("catalog.json", "catalog.yaml")) {
      ValidationResult r = CatalogValidator.validate(parseFoo(file, value), ValidationMode.STRICT);

      assertThat(r.errors())
          .as(file)
          .containsExactly(
              new ValidationIssue(
                  "foo",
                  null,
                  "foo.v0.1.0",
                  "invalid bundle \"foo.v0.1.0\": parse property[1] of type \"olm.csv.metadata\": "
                      + expected));
    }
    assertThat(CsvMetadataShape.check(Fixtures.JSON.readTree(value))).isEqualTo(expected);
  }

  @Test
  void acceptsNullsUnknownFieldsAndTheFullExample() throws Exception {
    String lenient =
        "{\"links\":null,\"annotations\":{\"a\":null},\"unknown\":{\"deep\":[1,{\"x\":true}]},\"keywords\":[]}";

    for (String value : List.of(FULL, lenient, "{}")) {
      for (String file : List.of("catalog.json", "catalog.yaml")) {
        assertThat(CatalogValidator.validate(parseFoo(file, value), ValidationMode.STRICT).errors())
            .as(file)
            .isEmpty();
      }
    }
  }

  @Test
  void aValueThatIsNotAnObjectIsRefused() throws Exception {
    ValidationResult r =
        CatalogValidator.validate(parseFoo("catalog.json", "[\"a\"]"), ValidationMode.STRICT);

    assertThat(r.errors())
        .extracting(ValidationIssue::message)
        .containsExactly(
            "invalid bundle \"foo.v0.1.0\": parse property[1] of type \"olm.csv.metadata\": value must be an object");
  }

  /**
   * Package foo with bundle foo.v0.1.0 whose csv.metadata is {@code metadata}; JSON is also valid
   * YAML.
   */
  private DeclarativeConfig parseFoo(String file, String metadata) throws FbcException {
    String catalog =
        FbcParserTest.PACKAGE_JSON
            + "\n"
            + "{\"schema\":\"olm.channel\",\"package\":\"foo\",\"name\":\"alpha\",\"entries\":[{\"name\":\"foo.v0.1.0\"}]}\n"
            + "{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v0.1.0\",\"image\":\"quay.io/foo:v0.1.0\","
            + "\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"foo\",\"version\":\"0.1.0\"}},"
            + "{\"type\":\"olm.csv.metadata\",\"value\":"
            + metadata
            + "}]}\n";
    String text = file.endsWith(".yaml") ? catalog.replace("\n{", "\n---\n{") : catalog;
    return parser.parse(file, text.getBytes(StandardCharsets.UTF_8));
  }
}
