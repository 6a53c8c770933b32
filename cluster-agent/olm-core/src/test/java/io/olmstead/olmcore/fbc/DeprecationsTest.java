package io.olmstead.olmcore.fbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code olm.deprecations} in a hand-made FBC: parsed, validated as upstream does, kept on the
 * package.
 */
class DeprecationsTest {
  private static final String CATALOG =
      String.join(
          "\n",
          "{\"schema\":\"olm.package\",\"name\":\"foo\",\"defaultChannel\":\"stable-v1.0\"}",
          "{\"schema\":\"olm.channel\",\"package\":\"foo\",\"name\":\"stable-v1.0\",\"entries\":[{\"name\":\"foo.v1.0.0\"}]}",
          "{\"schema\":\"olm.channel\",\"package\":\"foo\",\"name\":\"stable-v1.1\",\"entries\":[{\"name\":\"foo.v1.1.0\"}]}",
          bundle("1.0.0"),
          bundle("1.1.0"));

  private static String bundle(String version) {
    return "{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v"
        + version
        + "\",\"image\":\"quay.io/foo:"
        + version
        + "\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"foo\",\"version\":\""
        + version
        + "\"}}]}";
  }

  private static ValidationResult validate(String deprecations) throws Exception {
    DeclarativeConfig cfg =
        new FbcParser()
            .parse(
                "catalog.json",
                (CATALOG + "\n" + deprecations + "\n").getBytes(StandardCharsets.UTF_8));
    return CatalogValidator.validate(cfg, ValidationMode.STRICT);
  }

  @Test
  void packageChannelAndBundleDeprecationsAreParsedAndKeptOnThePackage() throws Exception {
    ValidationResult r =
        validate(
            "{\"schema\":\"olm.deprecations\",\"package\":\"foo\",\"entries\":["
                + "{\"reference\":{\"schema\":\"olm.package\"},\"message\":\"foo is end of life\"},"
                + "{\"reference\":{\"schema\":\"olm.channel\",\"name\":\"stable-v1.0\"},\"message\":\"use stable-v1.1\"},"
                + "{\"reference\":{\"schema\":\"olm.bundle\",\"name\":\"foo.v1.0.0\"},\"message\":\"CVE-2024-0001\"}]}");

    assertThat(r.errors()).isEmpty();
    CatalogPackage foo = r.catalog().orElseThrow().pkg("foo").orElseThrow();
    assertThat(foo.deprecation().orElseThrow().entries())
        .containsExactly(
            new Deprecation.Entry("olm.package", null, "foo is end of life"),
            new Deprecation.Entry("olm.channel", "stable-v1.0", "use stable-v1.1"),
            new Deprecation.Entry("olm.bundle", "foo.v1.0.0", "CVE-2024-0001"));
    assertThat(foo.isDeprecated("stable-v1.1", "foo.v1.1.0"))
        .as("the package entry covers everything")
        .isTrue();
  }

  @Test
  void onlyTheNamedChannelOrBundleIsDeprecated() throws Exception {
    CatalogPackage foo =
        validate(
                "{\"schema\":\"olm.deprecations\",\"package\":\"foo\",\"entries\":["
                    + "{\"reference\":{\"schema\":\"olm.bundle\",\"name\":\"foo.v1.0.0\"},\"message\":\"old\"}]}")
            .catalog()
            .orElseThrow()
            .pkg("foo")
            .orElseThrow();
    assertThat(foo.isDeprecated("stable-v1.0", "foo.v1.0.0")).isTrue();
    assertThat(foo.isDeprecated("stable-v1.1", "foo.v1.1.0")).isFalse();
  }

  @Test
  void aDeprecationOfAnUnknownBundleOrWithoutMessageIsAnError() throws Exception {
    ValidationResult r =
        validate(
            "{\"schema\":\"olm.deprecations\",\"package\":\"foo\",\"entries\":["
                + "{\"reference\":{\"schema\":\"olm.bundle\",\"name\":\"foo.v9.9.9\"},\"message\":\"x\"},"
                + "{\"reference\":{\"schema\":\"olm.channel\",\"name\":\"stable-v1.1\"}}]}");
    List<String> messages = r.errors().stream().map(ValidationIssue::message).toList();
    assertThat(messages).anyMatch(m -> m.contains("cannot deprecate bundle \"foo.v9.9.9\""));
    assertThat(messages).anyMatch(m -> m.contains("must have a message"));
  }
}
