package io.olmstead.olmcore.fbc;

import static io.olmstead.olmcore.fbc.Fixtures.fooCatalog;
import static io.olmstead.olmcore.fbc.Fixtures.fooWith;
import static io.olmstead.olmcore.fbc.Fixtures.prop;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code olm.maxOpenShiftVersion}: the cases of OLM's resolver and openshift helper tests, same
 * inputs and messages.
 */
class MaxOpenShiftVersionTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "'\"4.8\"'         | 4.8",
        "'\"4.15\"'        | 4.15",
        "'4.9'             | 4.9",
        "'\"\\\"4.12\\\"\"' | 4.12",
        "'\"v4.10\"'       | 4.10",
        "'\"04.08\"'       | 4.8",
        "'\"4.15.0\"'      | 4.15",
        "'\" 4.11 \"'      | 4.11",
      })
  void readsTheValueAsOlmDoes(String json, String expected) {
    Bundle b = fooWith(prop(MaxOpenShiftVersion.TYPE, json));

    assertThat(b.maxOpenShiftVersion()).map(MaxOpenShiftVersion::toString).contains(expected);
    assertThat(CatalogValidator.validate(fooCatalog(b).build(), ValidationMode.STRICT).errors())
        .isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "'\"\"'                | value cannot be \"\" (an empty string)",
        "'\"bad version\"'     | failed to parse \"bad version\" as semver: Invalid character(s) found in major number \"0bad version\"",
        "'\"2.0.99\"'          | property \"olm.maxOpenShiftVersion\" must specify only <major>.<minor> version, got invalid value 2.0.99",
        "'\"2.0-preview\"'     | failed to parse \"2.0-preview\" as semver: Short version cannot contain PreRelease/Build meta data",
        "'\"2.0+123.github\"'  | failed to parse \"2.0+123.github\" as semver: Invalid character(s) found in minor number \"0+123\"",
        "'\"4.15.0-rc.1\"'     | property \"olm.maxOpenShiftVersion\" must specify only <major>.<minor> version, got invalid value 4.15.0-rc.1",
        "'true'                | failed to parse \"true\" as semver: Invalid character(s) found in major number \"0true\"",
        "'{\"v\":\"4.8\"}'     | failed to parse \"{\"v\":\"4.8\"}\" as semver: Invalid character(s) found in major number \"0{\"v\":\"4\"",
      })
  void refusesAnInvalidValueWithOlmsMessage(String json, String expected) {
    Bundle b = fooWith(prop(MaxOpenShiftVersion.TYPE, json));

    ValidationResult r = CatalogValidator.validate(fooCatalog(b).build(), ValidationMode.STRICT);

    assertThat(b.maxOpenShiftVersion()).isEmpty();
    assertThat(r.errors())
        .containsExactly(
            new ValidationIssue(
                "foo",
                null,
                "foo.v0.1.0",
                "invalid bundle \"foo.v0.1.0\": invalid \"olm.maxOpenShiftVersion\" property: "
                    + expected));
  }

  @Test
  void refusesMoreThanOneProperty() {
    Bundle b =
        fooWith(
            prop(MaxOpenShiftVersion.TYPE, "\"4.8\""), prop(MaxOpenShiftVersion.TYPE, "\"4.9\""));

    ValidationResult r = CatalogValidator.validate(fooCatalog(b).build(), ValidationMode.LENIENT);

    assertThat(r.warnings())
        .extracting(ValidationIssue::message)
        .containsExactly(
            "invalid bundle \"foo.v0.1.0\": defining more than one \"olm.maxOpenShiftVersion\" property is not allowed");
    CatalogPackage foo = r.catalog().orElseThrow().pkg("foo").orElseThrow();
    assertThat(foo.bundle("foo.v0.1.0")).isEmpty();
    assertThat(foo.unusableChannels()).containsOnlyKeys("alpha");
  }

  @Test
  void allowsClusterMinorsUpToItself() {
    MaxOpenShiftVersion max = new MaxOpenShiftVersion(4, 15);

    assertThat(max.allows(4, 15)).isTrue();
    assertThat(max.allows(4, 9)).isTrue();
    assertThat(max.allows(3, 99)).isTrue();
    assertThat(max.allows(4, 16)).isFalse();
    assertThat(max.allows(5, 0)).isFalse();
  }

  @Test
  void absentPropertyMeansNoLimit() {
    assertThat(fooWith().maxOpenShiftVersion()).isEmpty();
  }
}
