package io.olmstead.olmcore.fbc;

import static io.olmstead.olmcore.fbc.Fixtures.fooCatalog;
import static io.olmstead.olmcore.fbc.Fixtures.fooWith;
import static io.olmstead.olmcore.fbc.Fixtures.prop;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.olmcore.fbc.Constraint.All;
import io.olmstead.olmcore.fbc.Constraint.Any;
import io.olmstead.olmcore.fbc.Constraint.Cel;
import io.olmstead.olmcore.fbc.Constraint.GvkConstraint;
import io.olmstead.olmcore.fbc.Constraint.Not;
import io.olmstead.olmcore.fbc.Constraint.PackageConstraint;
import io.olmstead.olmcore.semver.VersionException;
import io.olmstead.olmcore.semver.VersionRange;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code olm.constraint}: operator-framework/api constraint_test.go inputs plus OLM's resolver
 * conversion rules.
 */
class ConstraintTest {

  private static final String PARSE = "parse olm.constraint: ";
  private static final String CONVERT = "convert olm.constraint to resolver predicate: ";
  private static final GvkConstraint FOO_GVK =
      new GvkConstraint("blah", new Gvk("example.com", "v1", "Foo"));
  private static final PackageConstraint FUZ =
      new PackageConstraint("blah blah", new PackageRequirement("fuz", ">=1.0.0"));
  private static final String FUZ_JSON =
      "{\"failureMessage\":\"blah blah\",\"package\":{\"packageName\":\"fuz\",\"versionRange\":\">=1.0.0\"}}";

  static Stream<Arguments> validConstraints() {
    return Stream.of(
        Arguments.of(
            "Valid/BasicGVK",
            "{\"failureMessage\":\"blah\",\"gvk\":{\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Foo\"}}",
            FOO_GVK),
        Arguments.of(
            "Valid/BasicPackage",
            "{\"failureMessage\":\"blah\",\"package\":{\"packageName\":\"foo\",\"versionRange\":\">=1.0.0\"}}",
            new PackageConstraint("blah", new PackageRequirement("foo", ">=1.0.0"))),
        Arguments.of(
            "Valid/BasicAll",
            "{\"failureMessage\":\"blah\",\"all\":{\"constraints\":[" + FUZ_JSON + "]}}",
            new All("blah", List.of(FUZ))),
        Arguments.of(
            "Valid/BasicAny",
            "{\"failureMessage\":\"blah\",\"any\":{\"constraints\":[" + FUZ_JSON + "]}}",
            new Any("blah", List.of(FUZ))),
        Arguments.of(
            "Valid/BasicNot",
            "{\"failureMessage\":\"blah\",\"not\":{\"constraints\":[" + FUZ_JSON + "]}}",
            new Not("blah", List.of(FUZ))),
        Arguments.of(
            "Valid/Nested",
            "{\"all\":{\"constraints\":["
                + FUZ_JSON
                + ",{\"any\":{\"constraints\":[{\"gvk\":"
                + "{\"group\":\"b.io\",\"version\":\"v1\",\"kind\":\"B\"}}]}}]}}",
            new All(
                null,
                List.of(
                    FUZ,
                    new Any(null, List.of(new GvkConstraint(null, new Gvk("b.io", "v1", "B"))))))),
        Arguments.of(
            "Valid/Cel",
            "{\"cel\":{\"rule\":\"properties.exists(p, p.type == 'certified')\"}}",
            new Cel(null, "properties.exists(p, p.type == 'certified')")),
        Arguments.of("Valid/EmptyCompound", "{\"all\":{}}", new All(null, List.of())),
        Arguments.of(
            "Valid/GvkWinsOverPackage",
            "{\"failureMessage\":\"blah\",\"package\":{\"packageName\":\"x\","
                + "\"versionRange\":\"not a range\"},\"gvk\":{\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Foo\"}}",
            FOO_GVK),
        Arguments.of(
            "Valid/DeprecatedNoneIgnored",
            "{\"failureMessage\":\"blah\",\"none\":{\"constraints\":[]},"
                + "\"gvk\":{\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Foo\"}}",
            FOO_GVK),
        Arguments.of(
            "Valid/KeysMatchCaseInsensitively",
            "{\"FailureMessage\":\"blah\",\"GVK\":{\"Group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Foo\"}}",
            FOO_GVK));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validConstraints")
  void decodesTheFormOlmWouldUse(String name, String json, Constraint expected) {
    Bundle b = fooWith(prop("olm.constraint", json));

    assertThat(b.constraints()).containsExactly(expected);
    assertThat(CatalogValidator.validate(fooCatalog(b).build(), ValidationMode.STRICT).errors())
        .isEmpty();
  }

  static Stream<Arguments> malformedConstraints() {
    return Stream.of(
        Arguments.of(
            "Invalid/UnknownField",
            "{\"failureMessage\":\"something\",\"arbitrary\":{\"key\":\"value\"}}",
            PARSE + "json: unknown field \"arbitrary\""),
        Arguments.of(
            "Invalid/UnknownNestedField",
            "{\"gvk\":{\"group\":\"g\",\"versions\":\"v1\"}}",
            PARSE + "json: unknown field \"versions\""),
        Arguments.of(
            "Invalid/NotAnObject",
            "\"gvk\"",
            PARSE + "json: cannot unmarshal string into Go value of type constraints.Constraint"),
        Arguments.of(
            "Invalid/MessageNotAString",
            "{\"failureMessage\":1}",
            PARSE
                + "json: cannot unmarshal number into Go struct field Constraint.failureMessage of type string"),
        Arguments.of(
            "Invalid/GvkNotAnObject",
            "{\"gvk\":\"example.com/v1/Foo\"}",
            PARSE
                + "json: cannot unmarshal string into Go struct field Constraint.gvk of type constraints.GVKConstraint"),
        Arguments.of(
            "Invalid/GroupNotAString",
            "{\"gvk\":{\"group\":true}}",
            PARSE
                + "json: cannot unmarshal bool into Go struct field GVKConstraint.gvk.group of type string"),
        Arguments.of(
            "Invalid/ConstraintsNotAList",
            "{\"any\":{\"constraints\":{}}}",
            PARSE
                + "json: cannot unmarshal object into Go struct field CompoundConstraint.any.constraints"
                + " of type []constraints.Constraint"),
        Arguments.of(
            "Invalid/NestedShape",
            "{\"all\":{\"constraints\":[{\"package\":{\"packageName\":[]}}]}}",
            PARSE
                + "json: cannot unmarshal array into Go struct field PackageConstraint.all.constraints.package.packageName"
                + " of type string"),
        Arguments.of("Invalid/NoValue", null, PARSE + "EOF"),
        Arguments.of(
            "Invalid/TooLarge",
            "{\"failureMessage\":\"" + "x".repeat(ConstraintParser.MAX_SIZE) + "\"}",
            PARSE + "olm.constraint value is greater than max constraint size 131072 bytes"),
        Arguments.of("Invalid/Empty", "{}", CONVERT + "constraint is empty"),
        Arguments.of(
            "Invalid/OnlyAMessage",
            "{\"failureMessage\":\"blah\"}",
            CONVERT + "constraint is empty"),
        Arguments.of("Invalid/NullValue", "null", CONVERT + "constraint is empty"),
        Arguments.of(
            "Invalid/OnlyDeprecatedNone",
            "{\"none\":{\"constraints\":[" + FUZ_JSON + "]}}",
            CONVERT + "constraint is empty"),
        Arguments.of(
            "Invalid/EmptyNested",
            "{\"all\":{\"constraints\":[" + FUZ_JSON + ",{}]}}",
            CONVERT + "constraint is empty"),
        Arguments.of(
            "Invalid/BadRange",
            "{\"package\":{\"packageName\":\"foo\",\"versionRange\":\">=v1.0.0\"}}",
            CONVERT + rangeError(">=v1.0.0")),
        Arguments.of(
            "Invalid/NoRange", "{\"package\":{\"packageName\":\"foo\"}}", CONVERT + rangeError("")),
        Arguments.of(
            "Invalid/EmptyCelRule", "{\"cel\":{\"rule\":\"\"}}", CONVERT + "cel rule is empty"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedConstraints")
  void refusesAMalformedConstraintNamingPackageAndBundle(
      String name, String json, String expected) {
    Bundle b = fooWith(prop("olm.constraint", json));
    ValidationResult r = CatalogValidator.validate(fooCatalog(b).build(), ValidationMode.STRICT);

    assertThat(b.constraints()).isEmpty();
    assertThat(r.catalog()).isEmpty();
    assertThat(r.errors())
        .containsExactly(
            new ValidationIssue(
                "foo",
                null,
                "foo.v0.1.0",
                "invalid bundle \"foo.v0.1.0\": parse property[1] of type \"olm.constraint\": "
                    + expected));
  }

  private static String rangeError(String range) {
    try {
      VersionRange.parse(range);
      throw new AssertionError("range parsed: " + range);
    } catch (VersionException e) {
      return e.getMessage();
    }
  }
}
