package io.olmstead.olmcore.fbc;

import static io.olmstead.olmcore.fbc.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.olmcore.resolver.CatalogSource;
import io.olmstead.olmcore.resolver.Resolution;
import io.olmstead.olmcore.resolver.Resolver;
import io.olmstead.olmcore.resolver.SubscriptionRequest;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Re-creates operator-registry declcfg_to_model_test.go / model_test.go validation cases, same
 * inputs and messages.
 */
class CatalogValidatorTest {

  static Stream<Arguments> invalidConfigs() {
    return Stream.of(
        Arguments.of(
            "ChannelEntryWithoutBundle",
            new Cfg()
                .pkgs(pkg("foo", "alpha"))
                .channels(channel("foo", "alpha", entry("foo.v0.1.0"))),
            "no olm.bundle blobs found in package \"foo\" for olm.channel entries [foo.v0.1.0]"),
        Arguments.of(
            "BundleWithoutChannelEntry",
            validFoo().bundles(bundle("foo", "0.2.0")),
            "package \"foo\", bundle \"foo.v0.2.0\" not found in any channel entries"),
        Arguments.of(
            "PackageBreaksRFC1123",
            new Cfg()
                .pkgs(pkg("foo.bar", "alpha"))
                .channels(channel("foo.bar", "alpha", entry("foo.bar.v0.1.0")))
                .bundles(bundle("foo.bar", "0.1.0")),
            "invalid package name \"foo.bar\": [a lowercase RFC 1123 label must consist of"),
        Arguments.of(
            "NoPackageName",
            new Cfg().pkgs(pkg("", "alpha")),
            "config contains package with no name"),
        Arguments.of(
            "DuplicatePackage", validFoo().pkgs(pkg("foo", "alpha")), "duplicate package \"foo\""),
        Arguments.of(
            "DuplicateChannel",
            validFoo().channels(channel("foo", "alpha", entry("foo.v0.1.0"))),
            "package \"foo\" has duplicate channel \"alpha\""),
        Arguments.of(
            "DuplicateBundle",
            validFoo().bundles(bundle("foo", "0.1.0")),
            "package \"foo\" has duplicate bundle \"foo.v0.1.0\""),
        Arguments.of(
            "UnknownPackageForChannel",
            validFoo().channels(channel("bar", "alpha", entry("bar.v0.1.0"))),
            "unknown package \"bar\" for channel \"alpha\""),
        Arguments.of(
            "UnknownPackageForBundle",
            validFoo().bundles(bundle("bar", "0.1.0")),
            "unknown package \"bar\" for bundle \"bar.v0.1.0\""),
        Arguments.of(
            "DuplicateBundleVersions",
            new Cfg()
                .pkgs(pkg("foo", "alpha"))
                .channels(
                    channel(
                        "foo",
                        "alpha",
                        entry("foo.v0.1.0"),
                        entry("foo.v0.1.0-alt", "foo.v0.1.0", null)))
                .bundles(
                    bundle("foo", "0.1.0"),
                    bundle("foo", "foo.v0.1.0-alt", "0.1.0", "quay.io/foo:alt")),
            "duplicate versions found in bundles: [{0.1.0: [foo.v0.1.0, foo.v0.1.0-alt]}]"),
        Arguments.of(
            "InvalidSkipRange/LeadingV",
            new Cfg()
                .pkgs(pkg("foo", "alpha"))
                .channels(channel("foo", "alpha", entry("foo.v0.1.0", null, "<v0.1.0")))
                .bundles(bundle("foo", "0.1.0")),
            "invalid skipRange \"<v0.1.0\""),
        Arguments.of(
            "InvalidSkipRange/LeadingZero",
            new Cfg()
                .pkgs(pkg("foo", "alpha"))
                .channels(channel("foo", "alpha", entry("foo.v0.1.0", null, ">=01.0.0 <0.1.0")))
                .bundles(bundle("foo", "0.1.0")),
            "invalid skipRange \">=01.0.0 <0.1.0\""),
        Arguments.of(
            "BundleMissingImageAndObjects",
            new Cfg()
                .pkgs(pkg("foo", "alpha"))
                .channels(channel("foo", "alpha", entry("foo.v0.1.0")))
                .bundles(bundle("foo", "foo.v0.1.0", "0.1.0", null)),
            "bundle image must be set"),
        Arguments.of(
            "PackageMissingDefaultChannel",
            new Cfg()
                .pkgs(pkg("foo", null))
                .channels(channel("foo", "bar", entry("foo.v0.1.0")))
                .bundles(bundle("foo", "0.1.0")),
            "default channel must be set"),
        Arguments.of(
            "PackageNonExistentDefaultChannel",
            new Cfg()
                .pkgs(pkg("foo", "nonexistent"))
                .channels(channel("foo", "alpha", entry("foo.v0.1.0")))
                .bundles(bundle("foo", "0.1.0")),
            "default channel \"nonexistent\" not found in channels list"),
        Arguments.of(
            "MultiplePackageProperties",
            new Cfg()
                .pkgs(pkg("foo", "alpha"))
                .channels(channel("foo", "alpha", entry("foo.v0.1.0")))
                .bundles(
                    bundleWith(
                        "foo",
                        "foo.v0.1.0",
                        "img",
                        packageProperty("foo", "0.1.0"),
                        packageProperty("foo", "0.2.0"))),
            "package \"foo\" bundle \"foo.v0.1.0\" must have exactly 1 \"olm.package\" property, found 2"),
        Arguments.of(
            "PackagePropertyMismatch",
            new Cfg()
                .pkgs(pkg("foo", "alpha"))
                .channels(channel("foo", "alpha", entry("foo.v0.1.0")))
                .bundles(bundleWith("foo", "foo.v0.1.0", "img", packageProperty("bar", "0.1.0"))),
            "package \"foo\" does not match \"olm.package\" property \"bar\""),
        Arguments.of(
            "InvalidBundleVersion",
            new Cfg()
                .pkgs(pkg("foo", "alpha"))
                .channels(channel("foo", "alpha", entry("foo.v0.1.0")))
                .bundles(bundle("foo", "foo.v0.1.0", "v0.1.0", "img")),
            "error parsing bundle \"foo.v0.1.0\" version \"v0.1.0\""),
        Arguments.of(
            "InvalidProperty",
            new Cfg()
                .pkgs(pkg("foo", "alpha"))
                .channels(channel("foo", "alpha", entry("foo.v0.1.0")))
                .bundles(
                    bundleWith(
                        "foo",
                        "foo.v0.1.0",
                        "img",
                        packageProperty("foo", "0.1.0"),
                        new Property(
                            "olm.gvk",
                            JSON.createObjectNode().put("group", 1).put("version", "v1")))),
            "invalid bundle \"foo.v0.1.0\": parse property[1] of type \"olm.gvk\": field \"group\" must be a string"),
        Arguments.of(
            "Deprecation/UnspecifiedPackage",
            validFoo().deprecations(deprecation(null)),
            "package name must be set for deprecation item 0"),
        Arguments.of(
            "Deprecation/OutOfBoundsBundle",
            validFoo()
                .deprecations(
                    deprecation(
                        "foo",
                        deprecated(
                            "olm.bundle",
                            "foo.v2.0.0",
                            "foo.v2.0.0 doesn't exist in the first place"))),
            "cannot deprecate bundle \"foo.v2.0.0\" for package \"foo\": bundle not found"),
        Arguments.of(
            "Deprecation/OutOfBoundsPackage",
            validFoo().deprecations(deprecation("nyarl")),
            "cannot apply deprecations to an unknown package \"nyarl\""),
        Arguments.of(
            "Deprecation/OutOfBoundsChannel",
            validFoo()
                .deprecations(
                    deprecation(
                        "foo",
                        deprecated("olm.channel", "optimus", "optimus prime is not a channel"))),
            "cannot deprecate channel \"optimus\" for package \"foo\": channel not found"),
        Arguments.of(
            "Deprecation/MultiplePerPackage",
            validFoo()
                .deprecations(
                    deprecation("foo", deprecated("olm.package", null, "a")), deprecation("foo")),
            "expected a maximum of one deprecation per package: \"foo\""),
        Arguments.of(
            "Deprecation/NameOfPackage",
            validFoo()
                .deprecations(
                    deprecation(
                        "foo",
                        deprecated("olm.package", "foo", "the package name must stay empty"))),
            "package name must be empty for deprecated package \"foo\" (specified \"foo\")"),
        Arguments.of(
            "Deprecation/InvalidSchema",
            validFoo()
                .deprecations(deprecation("foo", deprecated("olm.bunble", "foo.v0.1.0", "typo"))),
            "cannot deprecate object declcfg.PackageScopedReference{Schema:\"olm.bunble\", Name:\"foo.v0.1.0\"} "
                + "referenced by entry 0 for package \"foo\": object schema unknown"),
        Arguments.of(
            "Deprecation/MissingSchema",
            validFoo()
                .deprecations(deprecation("foo", deprecated(null, "foo.v0.1.0", "no schema"))),
            "schema must be set for deprecation entry [0] for package \"foo\""),
        Arguments.of(
            "Deprecation/DuplicateRef",
            validFoo()
                .deprecations(
                    deprecation(
                        "foo",
                        deprecated("olm.bundle", "foo.v0.1.0", "bad"),
                        deprecated("olm.bundle", "foo.v0.1.0", "bad"))),
            "duplicate deprecation entry"),
        Arguments.of(
            "Deprecation/EmptyMessage",
            validFoo().deprecations(deprecation("foo", deprecated("olm.bundle", "foo.v0.1.0", ""))),
            "must have a message"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidConfigs")
  void rejectsInvalidConfigWithUpstreamMessage(String name, Cfg cfg, String expected) {
    ValidationResult strict = CatalogValidator.validate(cfg.build(), ValidationMode.STRICT);

    assertThat(strict.catalog()).isEmpty();
    assertThat(strict.errors())
        .extracting(ValidationIssue::message)
        .anySatisfy(m -> assertThat(m).contains(expected));
    ValidationResult lenient = CatalogValidator.validate(cfg.build(), ValidationMode.LENIENT);
    assertThat(lenient.catalog()).isPresent();
    assertThat(lenient.errors()).isEmpty();
    assertThat(lenient.warnings()).isEqualTo(strict.errors());
  }

  @Test
  void acceptsValidConfigWithDeprecationsAndIndexesIt() {
    DeclarativeConfig cfg =
        validFoo()
            .deprecations(
                deprecation(
                    "foo",
                    deprecated("olm.channel", "alpha", "use beta"),
                    deprecated("olm.bundle", "foo.v0.1.0", "old")))
            .build();

    ValidationResult r = CatalogValidator.validate(cfg, ValidationMode.STRICT);

    assertThat(r.errors()).isEmpty();
    Catalog c = r.catalog().orElseThrow();
    CatalogPackage foo = c.pkg("foo").orElseThrow();
    assertThat(foo.channel("").orElseThrow().head()).contains("foo.v0.1.0");
    assertThat(c.bundle("foo", "foo.v0.1.0")).isPresent();
    assertThat(foo.isDeprecated("alpha", null)).isTrue();
    assertThat(foo.isDeprecated("beta", "foo.v0.2.0")).isFalse();
  }

  @Test
  void collectsEveryErrorAndNamesPackageChannelAndBundle() {
    DeclarativeConfig cfg =
        new Cfg()
            .pkgs(pkg("foo", "alpha"), pkg("bar", "stable"))
            .channels(
                channel("foo", "alpha", entry("foo.v0.1.0"), entry("foo.v0.2.0")),
                channel("bar", "stable", entry("bar.v1.0.0", null, "<v1.0.0")))
            .bundles(
                bundle("foo", "0.1.0"),
                bundle("foo", "0.2.0"),
                bundle("foo", "0.3.0"),
                bundle("bar", "1.0.0"))
            .build();

    ValidationResult r = CatalogValidator.validate(cfg, ValidationMode.STRICT);

    assertThat(r.errors())
        .extracting(ValidationIssue::packageName, ValidationIssue::channel, ValidationIssue::bundle)
        .contains(
            org.assertj.core.groups.Tuple.tuple("foo", "alpha", null),
            org.assertj.core.groups.Tuple.tuple("foo", null, "foo.v0.3.0"),
            org.assertj.core.groups.Tuple.tuple("bar", "stable", "bar.v1.0.0"));
    assertThat(r.errors())
        .anySatisfy(
            i ->
                assertThat(i.message())
                    .isEqualTo(
                        "invalid channel \"alpha\": multiple channel heads found in graph: foo.v0.1.0, foo.v0.2.0"));
  }

  @Test
  void lenientModeMarksInvalidChannelsUnusableAndKeepsValidOnesUsable() {
    DeclarativeConfig cfg =
        new Cfg()
            .pkgs(pkg("foo", "stable"))
            .channels(
                channel(
                    "foo", "stable", entry("foo.v0.1.0"), entry("foo.v0.2.0", "foo.v0.1.0", null)),
                channel("foo", "broken", entry("foo.v0.1.0"), entry("foo.v0.2.0")))
            .bundles(bundle("foo", "0.1.0"), bundle("foo", "0.2.0"))
            .build();

    ValidationResult r = CatalogValidator.validate(cfg, ValidationMode.LENIENT);

    CatalogPackage foo = r.catalog().orElseThrow().pkg("foo").orElseThrow();
    assertThat(foo.usable()).isTrue();
    assertThat(foo.channels()).containsOnlyKeys("stable");
    assertThat(foo.channel(null).orElseThrow().head()).contains("foo.v0.2.0");
    assertThat(foo.unusableChannels()).containsOnlyKeys("broken");
    assertThat(foo.unusableChannels().get("broken").errors())
        .containsExactly("multiple channel heads found in graph: foo.v0.1.0, foo.v0.2.0");
    assertThat(foo.channel("broken")).isEmpty();
    assertThat(r.catalog().orElseThrow().channelCount()).isEqualTo(1);
    assertThat(r.warnings())
        .singleElement()
        .extracting(ValidationIssue::channel)
        .isEqualTo("broken");
  }

  @Test
  void resolutionNeverUsesAnUnusableChannel() {
    DeclarativeConfig cfg =
        new Cfg()
            .pkgs(pkg("foo", "stable"))
            .channels(
                channel(
                    "foo", "stable", entry("foo.v0.1.0"), entry("foo.v0.2.0", "foo.v0.1.0", null)),
                channel("foo", "broken", entry("foo.v0.1.0"), entry("foo.v0.2.0")))
            .bundles(bundle("foo", "0.1.0"), bundle("foo", "0.2.0"))
            .build();
    Catalog c = CatalogValidator.validate(cfg, ValidationMode.LENIENT).catalog().orElseThrow();
    Resolver resolver = new Resolver();

    Resolution broken =
        resolver.resolve(
            List.of(new CatalogSource("cat", 0, c)),
            List.of(new SubscriptionRequest("foo", "cat", "foo", "broken", null, null)),
            List.of());
    Resolution stable =
        resolver.resolve(
            List.of(new CatalogSource("cat", 0, c)),
            List.of(new SubscriptionRequest("foo", "cat", "foo", "stable", null, null)),
            List.of());

    assertThat(broken.satisfiable()).isFalse();
    assertThat(broken.message()).contains("no operators found in channel broken of package foo");
    assertThat(stable.satisfiable()).as(stable.message()).isTrue();
    assertThat(stable.bySubscription().get("foo").bundle().name()).isEqualTo("foo.v0.2.0");
  }

  @Test
  void keepsUnknownPropertyTypesAndAcceptsThem() {
    Bundle b =
        fooWith(
            prop("olm.label", "{\"label\":\"x\"}"),
            prop("example.com/custom", "[1,{\"a\":null}]"),
            prop("olm.gvk", "{\"group\":\"foo.io\",\"version\":\"v1\",\"kind\":\"Foo\"}"));

    ValidationResult r = CatalogValidator.validate(fooCatalog(b).build(), ValidationMode.STRICT);

    assertThat(r.errors()).isEmpty();
    assertThat(r.catalog().orElseThrow().bundle("foo", "foo.v0.1.0").orElseThrow().properties())
        .extracting(Property::type)
        .containsExactly("olm.package", "olm.label", "example.com/custom", "olm.gvk");
  }

  @Test
  void collectsPropertyErrorsOfEveryBundleNamingPackageAndBundle() {
    DeclarativeConfig cfg =
        new Cfg()
            .pkgs(pkg("foo", "alpha"))
            .channels(
                channel(
                    "foo",
                    "alpha",
                    entry("foo.v0.1.0"),
                    entry("foo.v0.2.0", "foo.v0.1.0", null),
                    entry("foo.v0.3.0", "foo.v0.2.0", null)))
            .bundles(
                fooWith(prop("olm.constraint", "{}")),
                bundleWith(
                    "foo",
                    "foo.v0.2.0",
                    "img",
                    packageProperty("foo", "0.2.0"),
                    prop("olm.maxOpenShiftVersion", "\"4.8.1\"")),
                bundleWith(
                    "foo",
                    "foo.v0.3.0",
                    "img",
                    packageProperty("foo", "0.3.0"),
                    prop("olm.csv.metadata", "{\"keywords\":1}")))
            .build();

    ValidationResult lenient = CatalogValidator.validate(cfg, ValidationMode.LENIENT);

    assertThat(lenient.warnings())
        .extracting(ValidationIssue::packageName, ValidationIssue::bundle)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("foo", "foo.v0.1.0"),
            org.assertj.core.groups.Tuple.tuple("foo", "foo.v0.2.0"),
            org.assertj.core.groups.Tuple.tuple("foo", "foo.v0.3.0"));
    CatalogPackage foo = lenient.catalog().orElseThrow().pkg("foo").orElseThrow();
    assertThat(foo.usable()).isTrue();
    assertThat(foo.bundles()).isEmpty();
    assertThat(foo.unusableChannels()).containsOnlyKeys("alpha");
  }

  @Test
  void lenientModeMarksAnInvalidPackageUnusable() {
    DeclarativeConfig cfg =
        new Cfg()
            .pkgs(pkg("foo", "nonexistent"), pkg("bar", "alpha"))
            .channels(
                channel("foo", "alpha", entry("foo.v0.1.0")),
                channel("bar", "alpha", entry("bar.v0.1.0")))
            .bundles(bundle("foo", "0.1.0"), bundle("bar", "0.1.0"))
            .build();

    Catalog c = CatalogValidator.validate(cfg, ValidationMode.LENIENT).catalog().orElseThrow();

    assertThat(c.pkg("foo").orElseThrow().usable()).isFalse();
    assertThat(c.pkg("foo").orElseThrow().channels()).isEmpty();
    assertThat(c.pkg("foo").orElseThrow().unusableChannels()).containsOnlyKeys("alpha");
    assertThat(c.pkg("bar").orElseThrow().unusableChannels()).isEmpty();
    assertThat(c.pkg("bar").orElseThrow().usable()).isTrue();
    assertThat(c.channelCount()).isEqualTo(1);
  }

  @Test
  void lenientModeMarksAChannelWhoseBundleIsInvalidUnusable() {
    DeclarativeConfig cfg =
        new Cfg()
            .pkgs(pkg("foo", "alpha"))
            .channels(
                channel("foo", "alpha", entry("foo.v0.1.0")),
                channel("foo", "beta", entry("foo.v0.2.0")))
            .bundles(bundle("foo", "0.1.0"), bundle("foo", "foo.v0.2.0", "0.2.0", null))
            .build();

    ValidationResult r = CatalogValidator.validate(cfg, ValidationMode.LENIENT);

    CatalogPackage foo = r.catalog().orElseThrow().pkg("foo").orElseThrow();
    assertThat(foo.channels()).containsOnlyKeys("alpha");
    assertThat(foo.unusableChannels()).containsOnlyKeys("beta");
    assertThat(foo.unusableChannels().get("beta").errors()).isEmpty();
    assertThat(foo.bundle("foo.v0.2.0")).isEmpty();
  }
}
