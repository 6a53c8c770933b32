package io.olmstead.olmcore.semver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Re-creates blang/semver v4 semver_test.go tables (format, compare, wrong format) plus semver 2.0
 * spec examples.
 */
class VersionTest {

  static Stream<Arguments> wellFormed() {
    return Stream.of(
        Arguments.of("1.2.3", 1, 2, 3, List.of(), List.of()),
        Arguments.of("0.0.1", 0, 0, 1, List.of(), List.of()),
        Arguments.of(
            "0.0.1-alpha.preview+123.456",
            0,
            0,
            1,
            List.of("alpha", "preview"),
            List.of("123", "456")),
        Arguments.of(
            "1.2.3-alpha.1+123.456", 1, 2, 3, List.of("alpha", "1"), List.of("123", "456")),
        Arguments.of("1.2.3-alpha.1", 1, 2, 3, List.of("alpha", "1"), List.of()),
        Arguments.of("1.2.3+123.456", 1, 2, 3, List.of(), List.of("123", "456")),
        Arguments.of(
            "1.2.3-alpha.b-eta+123.b-uild",
            1,
            2,
            3,
            List.of("alpha", "b-eta"),
            List.of("123", "b-uild")),
        Arguments.of("1.2.3+123.b-uild", 1, 2, 3, List.of(), List.of("123", "b-uild")),
        Arguments.of("1.2.3-alpha.b-eta", 1, 2, 3, List.of("alpha", "b-eta"), List.of()),
        Arguments.of("32.2.1-alpha", 32, 2, 1, List.of("alpha"), List.of()),
        Arguments.of("1.0.0+build-1", 1, 0, 0, List.of(), List.of("build-1")),
        Arguments.of("1.0.0-0", 1, 0, 0, List.of("0"), List.of()),
        Arguments.of("1.0.0-0a", 1, 0, 0, List.of("0a"), List.of()),
        Arguments.of("1.0.0+001", 1, 0, 0, List.of(), List.of("001")));
  }

  @ParameterizedTest
  @MethodSource("wellFormed")
  void parsesWellFormedVersionsIntoTheirParts(
      String text, int major, int minor, int patch, List<String> pre, List<String> build)
      throws VersionException {
    Version v = Version.parse(text);
    assertThat(v.major()).isEqualTo(major);
    assertThat(v.minor()).isEqualTo(minor);
    assertThat(v.patch()).isEqualTo(patch);
    assertThat(v.preRelease()).isEqualTo(pre);
    assertThat(v.build()).isEqualTo(build);
    assertThat(v.toString()).isEqualTo(text);
    assertThat(v.isPreRelease()).isEqualTo(!pre.isEmpty());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        ".",
        "1.",
        ".1",
        "a.b.c",
        "1.a.b",
        "1.1.a",
        "1.a.1",
        "a.1.1",
        "..",
        "1..",
        "1.1.",
        "1..1",
        "1.1.+123",
        "1.1.-beta",
        "-1.1.1",
        "1.-1.1",
        "1.1.-1",
        "20000000000000000000.1.1",
        "1.20000000000000000000.1",
        "1.1.20000000000000000000",
        "1.1.1-20000000000000000000",
        "01.1.1",
        "001.1.1",
        "1.01.1",
        "1.001.1",
        "1.1.01",
        "1.1.001",
        "1.1.1-01",
        "1.1.1-001",
        "1.1.1-beta.01",
        "1.1.1-beta.001",
        "0.0.0-!",
        "0.0.0+!",
        "0.0.0-.alpha",
        "0.0.0-alpha+",
        "0.0.0-alpha+test.",
        "v1.2.3",
        "1.2",
        "1",
        "invalid version",
        " 1.2.3",
        "1.2.3 ",
        "1.2.3-",
        "1.2.3-a..b",
        "1.2.3-α",
        "１.2.3"
      })
  void rejectsMalformedVersions(String text) {
    assertThatThrownBy(() -> Version.parse(text)).isInstanceOf(VersionException.class);
    assertThat(Version.tryParse(text)).isEmpty();
  }

  @Test
  void rejectsNullWithoutAnUncheckedException() {
    assertThatThrownBy(() -> Version.parse(null))
        .isInstanceOf(VersionException.class)
        .hasMessage("Version string empty");
    assertThat(Version.tryParse(null)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({
    "01.1.1, Major number must not contain leading zeroes \"01\"",
    "1.01.1, Minor number must not contain leading zeroes \"01\"",
    "1.1.01, Patch number must not contain leading zeroes \"01\"",
    "1.1.1-beta.01, Numeric PreRelease version must not contain leading zeroes \"01\"",
    "v1.2.3, Invalid character(s) found in major number \"v1\"",
    "1.2, No Major.Minor.Patch elements found",
    "0.0.0-!, Invalid character(s) found in prerelease \"!\"",
    "0.0.0+!, Invalid character(s) found in build meta data \"!\"",
    "0.0.0-alpha+, Build meta data is empty",
    "0.0.0-.alpha, Prerelease is empty"
  })
  void explainsWhyAVersionIsRejected(String text, String message) {
    assertThatThrownBy(() -> Version.parse(text)).hasMessage(message);
  }

  static Stream<Arguments> comparisons() {
    return Stream.of(
        Arguments.of("1.0.0", "1.0.0", 0),
        Arguments.of("2.0.0", "1.0.0", 1),
        Arguments.of("0.1.0", "0.1.0", 0),
        Arguments.of("0.2.0", "0.1.0", 1),
        Arguments.of("0.0.1", "0.0.1", 0),
        Arguments.of("0.0.2", "0.0.1", 1),
        Arguments.of("1.2.3", "1.2.3", 0),
        Arguments.of("2.2.4", "1.2.4", 1),
        Arguments.of("1.3.3", "1.2.3", 1),
        Arguments.of("1.2.4", "1.2.3", 1),
        // spec example 11
        Arguments.of("1.0.0", "2.0.0", -1),
        Arguments.of("2.0.0", "2.1.0", -1),
        Arguments.of("2.1.0", "2.1.1", -1),
        // spec example 9
        Arguments.of("1.0.0", "1.0.0-alpha", 1),
        Arguments.of("1.0.0-alpha", "1.0.0-alpha.1", -1),
        Arguments.of("1.0.0-alpha.1", "1.0.0-alpha.beta", -1),
        Arguments.of("1.0.0-alpha.beta", "1.0.0-beta", -1),
        Arguments.of("1.0.0-beta", "1.0.0-beta.2", -1),
        Arguments.of("1.0.0-beta.2", "1.0.0-beta.11", -1),
        Arguments.of("1.0.0-beta.11", "1.0.0-rc.1", -1),
        Arguments.of("1.0.0-rc.1", "1.0.0", -1),
        // build metadata is ignored
        Arguments.of("1.0.0+1.2.3", "1.0.0", 0),
        Arguments.of("1.0.0-rc.1+a", "1.0.0-rc.1+b", 0),
        // alphanumeric identifiers compare in ASCII order, uppercase first
        Arguments.of("1.0.0-Z", "1.0.0-a", -1),
        Arguments.of("1.0.0-1", "1.0.0-a", -1),
        Arguments.of("1.0.0-9", "1.0.0-10", -1),
        Arguments.of("1.0.0-a9", "1.0.0-a10", 1),
        Arguments.of("9223372036854775807.0.0", "9223372036854775806.0.0", 1));
  }

  @ParameterizedTest
  @MethodSource("comparisons")
  void comparesBySemverPrecedence(String a, String b, int expected) throws VersionException {
    Version va = Version.parse(a);
    Version vb = Version.parse(b);
    assertThat(Integer.signum(va.compareTo(vb))).isEqualTo(expected);
    assertThat(Integer.signum(vb.compareTo(va))).isEqualTo(-expected);
    assertThat(va.equals(vb)).isEqualTo(expected == 0);
    if (expected == 0) {
      assertThat(va.hashCode()).isEqualTo(vb.hashCode());
    }
  }

  @Test
  void sortsTheSpecExampleChainIntoOrder() throws VersionException {
    List<String> ordered =
        List.of(
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
            "1.0.1",
            "1.1.0",
            "2.0.0");
    List<Version> versions = new ArrayList<>();
    for (String s : ordered) {
      versions.add(Version.parse(s));
    }
    Collections.shuffle(versions, new java.util.Random(7));
    Collections.sort(versions);
    assertThat(versions).extracting(Version::toString).containsExactlyElementsOf(ordered);
  }

  @Test
  void keepsBuildMetadataInTextButNotInEquality() throws VersionException {
    Version withBuild = Version.parse("1.2.3+sha.abc");
    Version plain = Version.parse("1.2.3");
    assertThat(withBuild).isEqualTo(plain);
    assertThat(withBuild.toString()).isEqualTo("1.2.3+sha.abc");
    assertThat(withBuild.build()).containsExactly("sha", "abc");
  }

  @Test
  void saturatesHugeComponentsInIntAccessorsButKeepsExactLongs() throws VersionException {
    Version v = Version.parse("4294967296.0.1");
    assertThat(v.major()).isEqualTo(Integer.MAX_VALUE);
    assertThat(v.majorLong()).isEqualTo(4294967296L);
    assertThat(v).isGreaterThan(Version.parse("2147483647.0.1"));
  }

  @Test
  void buildsReleaseVersionsFromNumbers() {
    assertThat(Version.of(1, 2, 3).toString()).isEqualTo("1.2.3");
    assertThat(Version.of(1, 2, 3)).isEqualTo(Version.tryParse("1.2.3").orElseThrow());
  }
}
