package io.olmstead.olmcore.fbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Null and garbage at every public entry of the fbc package: FbcException or an error result, never
 * unchecked.
 */
class NullAndGarbageInputTest {

  private final FbcParser parser = new FbcParser();

  @Test
  void parsingNullContentIsAnFbcExceptionNamingTheFile() {
    assertThatThrownBy(() -> parser.parse("catalog.json", null))
        .isInstanceOf(FbcException.class)
        .hasMessage("catalog.json: no catalog content given");
    assertThatThrownBy(() -> parser.parse(null, null)).isInstanceOf(FbcException.class);
  }

  @Test
  void parsingFilesRejectsANullMapPathOrContent() {
    assertThatThrownBy(() -> parser.parseFiles(null))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("no catalog files given");
    Map<String, byte[]> nullPath = new HashMap<>();
    nullPath.put(null, "{}".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> parser.parseFiles(nullPath))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("has no path");
    Map<String, byte[]> nullContent = new HashMap<>();
    nullContent.put("./foo/catalog.json", null);
    assertThatThrownBy(() -> parser.parseFiles(nullContent))
        .isInstanceOf(FbcException.class)
        .hasMessage("foo/catalog.json: no content given for this file");
  }

  @Test
  void parsingANullArchiveOrDirectoryIsAnFbcException() {
    assertThatThrownBy(() -> parser.parseTarGz(null))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("no archive given");
    assertThatThrownBy(() -> parser.parseDirectory(null))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("no catalog directory given");
    assertThatThrownBy(() -> parser.parseDirectory(Path.of("/nonexistent/olmstead/catalog")))
        .isInstanceOf(FbcException.class);
  }

  @Test
  void aParserWithoutLimitsUsesTheDefaults() throws Exception {
    FbcParser unlimited = new FbcParser(null);
    assertThat(unlimited.limits()).isEqualTo(ParseLimits.defaults());
    assertThat(
            unlimited
                .parse("c.json", FbcParserTest.PACKAGE_JSON.getBytes(StandardCharsets.UTF_8))
                .packages())
        .hasSize(1);
  }

  @Test
  void randomBytesInEveryFormatAreRejectedOrParsedButNeverThrowUnchecked() {
    Random random = new Random(42);
    for (int i = 0; i < 300; i++) {
      byte[] garbage = new byte[random.nextInt(2048)];
      random.nextBytes(garbage);
      if (i % 3 == 0 && garbage.length > 2) {
        garbage[0] = (byte) 0x1f; // gzip magic, so the tar reader gets past the first check
        garbage[1] = (byte) 0x8b;
      }
      for (String name : new String[] {"c.json", "c.yaml", "c"}) {
        exercise(() -> parser.parse(name, garbage), i);
      }
      exercise(() -> parser.parseTarGz(garbage), i);
      exercise(() -> parser.parseFiles(Map.of(".indexignore", garbage, "c.json", garbage)), i);
    }
  }

  @Test
  void validatingNothingGivesNoCatalogAndOneError() {
    ValidationResult r = CatalogValidator.validate(null, ValidationMode.LENIENT);
    assertThat(r.catalog()).isEmpty();
    assertThat(r.errors())
        .singleElement()
        .extracting(ValidationIssue::message)
        .isEqualTo("no catalog to validate");
  }

  @Test
  void aNullValidationModeIsStrict() throws Exception {
    DeclarativeConfig noChannel =
        parser.parse("c.json", FbcParserTest.PACKAGE_JSON.getBytes(StandardCharsets.UTF_8));
    ValidationResult r = CatalogValidator.validate(noChannel, null);
    assertThat(r.catalog()).isEmpty();
    assertThat(r.errors())
        .extracting(ValidationIssue::message)
        .anyMatch(m -> m.contains("at least one channel"));
  }

  @Test
  void aChannelEntryWithoutANameIsReportedNotThrown() throws Exception {
    String catalog =
        "{\"schema\":\"olm.package\",\"name\":\"p\",\"defaultChannel\":\"c\"}\n"
            + "{\"schema\":\"olm.channel\",\"package\":\"p\",\"name\":\"c\",\"entries\":[{\"name\":\"p.v1\"},{}]}\n";
    DeclarativeConfig cfg = parser.parse("c.json", catalog.getBytes(StandardCharsets.UTF_8));

    ValidationResult strict = CatalogValidator.validate(cfg, ValidationMode.STRICT);
    assertThat(strict.catalog()).isEmpty();
    assertThat(strict.errors()).extracting(ValidationIssue::message).contains("name must be set");
    ValidationResult lenient = CatalogValidator.validate(cfg, ValidationMode.LENIENT);
    assertThat(lenient.catalog()).hasValueSatisfying(c -> assertThat(c.packages()).hasSize(1));
    assertThat(lenient.warnings())
        .extracting(ValidationIssue::message)
        .contains("name must be set");
  }

  @Test
  void bundleObjectsAreDecodedWithinTheLimitsTheCatalogWasParsedWith() throws Exception {
    String deep =
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"data\":"
            + "[".repeat(30)
            + "]".repeat(30)
            + "}";
    String deepYaml = "kind: ConfigMap\ndata: " + "[".repeat(30) + "]".repeat(30) + "\n";
    String blob =
        "{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v0.1.0\",\"properties\":["
            + "{\"type\":\"olm.bundle.object\",\"value\":{\"data\":\""
            + b64(deep)
            + "\"}},"
            + "{\"type\":\"olm.bundle.object\",\"value\":{\"data\":\""
            + b64(deepYaml)
            + "\"}}]}";
    byte[] catalog = blob.getBytes(StandardCharsets.UTF_8);
    FbcParser shallow =
        new FbcParser(new ParseLimits(ParseLimits.MIB, 4 * ParseLimits.MIB, 20, 16));

    for (BundleObject o : shallow.parse("c.json", catalog).bundles().get(0).objects()) {
      assertThatThrownBy(o::manifest)
          .isInstanceOf(FbcException.class)
          .hasMessageContaining("nesting depth");
    }
    for (BundleObject o : parser.parse("c.json", catalog).bundles().get(0).objects()) {
      assertThat(o.manifest().path("kind").asText()).isEqualTo("ConfigMap");
    }
  }

  @Test
  void garbageBundleObjectsAreFbcExceptionsOrObjects() {
    Random random = new Random(7);
    for (int i = 0; i < 500; i++) {
      byte[] garbage = new byte[random.nextInt(512)];
      random.nextBytes(garbage);
      String data =
          i % 2 == 0
              ? Base64.getEncoder().encodeToString(garbage)
              : new String(garbage, StandardCharsets.ISO_8859_1);
      BundleObject o = new BundleObject("b", data);
      exercise(o::manifest, i);
      assertThat(o.kind()).isNull();
    }
    assertThatThrownBy(() -> new BundleObject(null, null).manifest())
        .isInstanceOf(FbcException.class);
  }

  private interface Call {
    Object run() throws FbcException;
  }

  private static void exercise(Call call, int i) {
    try {
      call.run();
    } catch (FbcException expected) {
      assertThat(expected.getMessage()).isNotBlank();
    } catch (Throwable t) {
      fail("input " + i + " leaked " + t, t);
    }
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }
}
