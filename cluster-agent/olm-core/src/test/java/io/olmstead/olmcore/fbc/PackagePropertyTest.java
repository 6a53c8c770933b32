package io.olmstead.olmcore.fbc;

import static io.olmstead.olmcore.fbc.Fixtures.JSON;
import static io.olmstead.olmcore.fbc.Fixtures.channel;
import static io.olmstead.olmcore.fbc.Fixtures.entry;
import static io.olmstead.olmcore.fbc.Fixtures.pkg;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@code release} of the {@code olm.package} property (operator-registry versionrelease.go and
 * validate.go).
 */
class PackagePropertyTest {

  @ParameterizedTest(name = "\"{0}\"")
  @CsvSource(
      delimiter = '|',
      nullValues = "NONE",
      value = {
        "1                       | NONE",
        "2.alpha-3.x             | NONE",
        "''                      | NONE",
        "01                      | invalid release \"01\": segment 0: Numeric PreRelease version must not contain leading zeroes \"01\"",
        "a..b                    | invalid release \"a..b\": segment 1: Prerelease is empty",
        "a_b                     | invalid release \"a_b\": segment 0: Invalid character(s) found in prerelease \"a_b\"",
        "123456789012345678901   | invalid release \"123456789012345678901\": exceeds maximum length of 20 characters",
      })
  void releasesParseLikeUpstreamNewRelease(String release, String expected) {
    assertThat(PackageProperty.releaseError(release)).isEqualTo(expected);
  }

  @Test
  void everyInvalidSegmentIsListed() {
    assertThat(PackageProperty.releaseError("01.x_y"))
        .isEqualTo(
            "invalid release \"01.x_y\": "
                + "segment 0: Numeric PreRelease version must not contain leading zeroes \"01\"\n"
                + "segment 1: Invalid character(s) found in prerelease \"x_y\"");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "NONE",
      value = {
        "foo-v0.1.0-1    | 0.1.0    | 1    | NONE",
        "foo.v0.1.0      | 0.1.0    | ''   | NONE",
        "foo.v0.1.0      | 0.1.0    | 1    | invalid bundle \"foo.v0.1.0\": name \"foo.v0.1.0\" does not match normalized name \"foo-v0.1.0-1\"",
        "foo-v0.1.0+b-1  | 0.1.0+b  | 1    | invalid bundle \"foo-v0.1.0+b-1\": cannot use build metadata in version with a release version",
        "foo-v0.1.0-01   | 0.1.0    | 01   | error parsing bundle \"foo-v0.1.0-01\" release \"01\": invalid release \"01\": segment 0: "
            + "Numeric PreRelease version must not contain leading zeroes \"01\"",
      })
  void validatesTheReleaseOfABundle(String name, String version, String release, String expected) {
    ValidationResult r =
        CatalogValidator.validate(
            withReleases(new String[] {name, version, release}), ValidationMode.STRICT);

    if (expected == null) {
      assertThat(r.errors()).isEmpty();
      Bundle b = r.catalog().orElseThrow().bundle("foo", name).orElseThrow();
      assertThat(b.packageProperty())
          .contains(new PackageProperty("foo", version, release.isEmpty() ? null : release));
      assertThat(b.release())
          .isEqualTo(
              release.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(release));
    } else {
      assertThat(r.errors()).containsExactly(new ValidationIssue("foo", null, name, expected));
    }
  }

  @Test
  void oneVersionWithDifferentReleasesIsNotADuplicate() {
    ValidationResult r =
        CatalogValidator.validate(
            withReleases(
                new String[] {"foo-v0.1.0-1", "0.1.0", "1"},
                new String[] {"foo-v0.1.0-2", "0.1.0", "2"}),
            ValidationMode.STRICT);

    assertThat(r.errors()).isEmpty();
  }

  @Test
  void oneVersionWithAndWithoutAReleaseIsNotADuplicateButTwiceTheSameIs() {
    ValidationResult r =
        CatalogValidator.validate(
            withReleases(
                new String[] {"foo-v0.1.0-1", "0.1.0", "1"},
                new String[] {"foo.v0.1.0", "0.1.0", ""},
                new String[] {"foo.v0.1.0-alt", "0.1.0", ""}),
            ValidationMode.STRICT);

    assertThat(r.errors())
        .extracting(ValidationIssue::message)
        .containsExactly(
            "invalid package \"foo\": duplicate versions found in bundles: [{0.1.0: [foo.v0.1.0, foo.v0.1.0-alt]}]");
  }

  @Test
  void aReleaseThatIsNotAStringIsAShapeError() {
    Bundle b =
        new Bundle(
            "foo",
            "foo.v0.1.0",
            "img",
            List.of(
                new Property(
                    "olm.package",
                    JSON.createObjectNode()
                        .put("packageName", "foo")
                        .put("version", "0.1.0")
                        .put("release", 1))),
            List.of());

    ValidationResult r =
        CatalogValidator.validate(Fixtures.fooCatalog(b).build(), ValidationMode.STRICT);

    assertThat(r.errors())
        .extracting(ValidationIssue::message)
        .containsExactly(
            "invalid bundle \"foo.v0.1.0\": parse property[0] of type \"olm.package\": field \"release\" must be a string");
  }

  /** Package foo, one channel replacing bundle after bundle; each row is name, version, release. */
  private static DeclarativeConfig withReleases(String[]... rows) {
    Fixtures.Cfg cfg = new Fixtures.Cfg().pkgs(pkg("foo", "alpha"));
    ChannelEntry[] entries = new ChannelEntry[rows.length];
    for (int i = 0; i < rows.length; i++) {
      String[] row = rows[i];
      var value = JSON.createObjectNode().put("packageName", "foo").put("version", row[1]);
      if (!row[2].isEmpty()) {
        value.put("release", row[2]);
      }
      cfg.bundles(
          new Bundle(
              "foo",
              row[0],
              "quay.io/foo:" + i,
              List.of(new Property("olm.package", value)),
              List.of()));
      entries[i] = i == 0 ? entry(row[0]) : entry(row[0], rows[i - 1][0], null);
    }
    return cfg.channels(channel("foo", "alpha", entries)).build();
  }
}
