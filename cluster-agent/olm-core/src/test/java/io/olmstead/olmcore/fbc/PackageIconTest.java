package io.olmstead.olmcore.fbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code icon} of {@code olm.package}: kept as base64 text through validation, decoded only on
 * demand.
 */
class PackageIconTest {

  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  private static final String B64 = Base64.getEncoder().encodeToString(PNG);

  private final FbcParser parser = new FbcParser();

  @ParameterizedTest
  @ValueSource(strings = {"catalog.json", "catalog.yaml"})
  void keepsTheIconOnThePackageAndTheIndexedCatalog(String file) throws Exception {
    DeclarativeConfig cfg =
        parse(file, "{\"base64data\":\"" + B64 + "\",\"mediatype\":\"image/png\"}");

    assertThat(cfg.packages())
        .containsExactly(new PackageMeta("foo", "alpha", "Foo", new Icon(B64, "image/png")));
    CatalogPackage foo =
        CatalogValidator.validate(cfg, ValidationMode.STRICT)
            .catalog()
            .orElseThrow()
            .pkg("foo")
            .orElseThrow();
    assertThat(foo.icon()).map(Icon::mediatype).contains("image/png");
    assertThat(foo.icon().orElseThrow().decode()).isEqualTo(PNG);
  }

  @Test
  void aPackageWithoutIconHasNone() throws Exception {
    DeclarativeConfig cfg =
        parser.parse("c.json", FbcParserTest.PACKAGE_JSON.getBytes(StandardCharsets.UTF_8));

    assertThat(cfg.packages().get(0).icon()).isNull();
    assertThat(
            new CatalogPackage(
                    cfg.packages().get(0), java.util.Map.of(), java.util.Map.of(), null, true)
                .icon())
        .isEmpty();
  }

  @Test
  void invalidBase64IsOnlyAProblemWhenDecoded() throws Exception {
    DeclarativeConfig cfg =
        parse("catalog.json", "{\"base64data\":\"!!not base64\",\"mediatype\":\"image/png\"}");

    assertThat(CatalogValidator.validate(cfg, ValidationMode.STRICT).errors()).isEmpty();
    assertThatThrownBy(() -> cfg.packages().get(0).icon().decode())
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("invalid base64 in icon");
    assertThatThrownBy(() -> new Icon(null, "image/png").decode())
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("icon has no base64data");
  }

  @Test
  void anIconThatIsNotAnObjectIsAParseError() {
    assertThatThrownBy(() -> parse("catalog.json", "\"" + B64 + "\""))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining(
            "invalid olm.package blob \"foo\": \"icon\" must be an object, found string");
  }

  @Test
  void printsNoBase64() {
    assertThat(new Icon(B64, "image/png").toString())
        .isEqualTo("Icon[image/png, " + B64.length() + " base64 chars]");
  }

  private DeclarativeConfig parse(String file, String icon) throws FbcException {
    String json =
        "{\"schema\":\"olm.package\",\"name\":\"foo\",\"defaultChannel\":\"alpha\",\"description\":\"Foo\","
            + "\"icon\":"
            + icon
            + "}\n"
            + "{\"schema\":\"olm.channel\",\"package\":\"foo\",\"name\":\"alpha\",\"entries\":[{\"name\":\"foo.v0.1.0\"}]}\n"
            + "{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v0.1.0\",\"image\":\"quay.io/foo:v0.1.0\","
            + "\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"foo\",\"version\":\"0.1.0\"}}]}\n";
    String text = file.endsWith(".yaml") ? json.replace("\n{", "\n---\n{") : json;
    return parser.parse(file, text.getBytes(StandardCharsets.UTF_8));
  }
}
