package io.olmstead.olmcore.resolver;

import static io.olmstead.olmcore.resolver.TestCatalog.b;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.olmcore.fbc.Catalog;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Re-creations of OLM's resolver_test.go and step_resolver_test.go cases (same inputs, same
 * outcome). Upstream catalogs live in namespaces; here the subscription's catalog plays the "same
 * namespace" role.
 */
class ResolverUpstreamCasesTest {
  private static final String GVK_G = "g";
  private final Resolver resolver = new Resolver();

  static SubscriptionRequest sub(String name, String catalog, String pkg, String channel) {
    return new SubscriptionRequest(name, catalog, pkg, channel, null, null);
  }

  static InstalledOperator installed(String bundle, String pkg, String catalog, String channel) {
    return new InstalledOperator(bundle, pkg, catalog, channel);
  }

  private Resolution resolve(
      Catalog catalog, List<SubscriptionRequest> subs, List<InstalledOperator> installed) {
    return resolver.resolve(
        List.of(new CatalogSource("test-catalog", 0, catalog)), subs, installed);
  }

  private static String chosen(Resolution r, String sub) {
    assertThat(r.satisfiable()).as(r.message()).isTrue();
    assertThat(r.bySubscription()).containsKey(sub);
    return r.bySubscription().get(sub).bundle().name();
  }

  @Test
  void disjointChannelGraphFailsWithTheUpstreamReplacementChainError() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("packageA.side1.v1").in("packageA", "alpha").version("0.0.1"),
                b("packageA.side1.v2")
                    .in("packageA", "alpha")
                    .version("0.0.2")
                    .replaces("packageA.side1.v1"),
                b("packageA.side2.v1").in("packageA", "alpha").version("1.0.0"),
                b("packageA.side2.v2")
                    .in("packageA", "alpha")
                    .version("2.0.0")
                    .replaces("packageA.side2.v1"))
            .build();

    Resolution r =
        resolve(
            catalog,
            List.of(sub("packageA-alpha", "test-catalog", "packageA", "alpha")),
            List.of());

    assertThat(r.satisfiable()).isFalse();
    assertThat(r.message())
        .isEqualTo(
            "a unique replacement chain within a channel is required to determine the relative"
                + " order between channel entries, but 2 replacement chains were found in channel \"alpha\" of package"
                + " \"packageA\": packageA.side1.v2...packageA.side1.v1, packageA.side2.v2...packageA.side2.v1");
  }

  @Test
  void solveOperatorsWithSkipsChoosesTheSkippingBundle() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("packageB.v1").in("packageB", "alpha").version("1.0.0"),
                b("packageB.v2").in("packageB", "alpha").version("2.0.0").skips("packageB.v1"))
            .build();

    Resolution r =
        resolve(
            catalog,
            List.of(sub("packageB-alpha", "test-catalog", "packageB", "alpha")),
            List.of());

    assertThat(chosen(r, "packageB-alpha")).isEqualTo("packageB.v2");
    assertThat(r.dependencies()).isEmpty();
  }

  @Test
  void skippedProviderCannotSatisfyADependency() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("a-1").in("a", "channel").version("1.0.0").requiresGvk(GVK_G, "v", "k"),
                b("b-3").in("b", "channel").version("3.0.0").replaces("b-2").skips("b-1"),
                b("b-2").in("b", "channel").version("2.0.0").replaces("b-1"),
                b("b-1").in("b", "channel").version("1.0.0").provides(GVK_G, "v", "k"))
            .build();

    Resolution r =
        resolve(catalog, List.of(sub("a-channel", "test-catalog", "a", "channel")), List.of());

    assertThat(r.satisfiable()).isFalse();
    assertThat(r.message())
        .isEqualTo(
            "constraints not satisfiable: subscription a-channel requires"
                + " test-catalog/channel/a-1, subscription a-channel exists, bundle a-1 requires an operator providing an API"
                + " with group: g, version: v, kind: k");
  }

  @Test
  void packageCannotSatisfyItsOwnDependency() {
    Catalog community =
        new TestCatalog()
            .defaultChannel("packageA", "stable")
            .defaultChannel("packageB", "stable")
            .add(
                b("opA.v1.0.0")
                    .in("packageA", "stable")
                    .version("1.0.0")
                    .requiresGvk("g", "v", "k")
                    .requiresGvk("g2", "v", "k"),
                b("opABC.v1.0.0")
                    .in("packageA", "alpha")
                    .version("1.0.0")
                    .provides("g", "v", "k")
                    .provides("g2", "v", "k"),
                b("opB.v1.0.0").in("packageB", "stable").version("1.0.0").provides("g", "v", "k"),
                b("opD.v1.0.0").in("packageB", "alpha").version("1.0.0").provides("g", "v", "k"))
            .build();
    Catalog secondary =
        new TestCatalog()
            .defaultChannel("packageB", "stable")
            .add(
                b("opC.v1.0.0").in("packageB", "stable").version("1.0.0").provides("g2", "v", "k"),
                b("opE.v1.0.0").in("packageC", "stable").version("1.0.0").provides("g2", "v", "k"))
            .build();

    Resolution r =
        resolver.resolve(
            List.of(
                new CatalogSource("community", 0, community),
                new CatalogSource("secondary", 0, secondary)),
            List.of(sub("packageA-stable", "community", "packageA", "stable")),
            List.of());

    assertThat(chosen(r, "packageA-stable")).isEqualTo("opA.v1.0.0");
    assertThat(r.dependencies())
        .extracting(d -> d.catalog() + "/" + d.bundle().name())
        .containsExactly("community/opB.v1.0.0", "secondary/opE.v1.0.0");
  }

  @Test
  void prefersTheSubscriptionsOwnCatalog() {
    Catalog community =
        new TestCatalog()
            .add(
                b("packageA.v0.0.1")
                    .in("packageA", "alpha")
                    .version("0.0.1")
                    .replaces("packageA.v1")
                    .provides("g", "v", "k"))
            .build();
    Catalog alt =
        new TestCatalog()
            .add(
                b("packageA.v0.0.1")
                    .in("packageA", "alpha")
                    .version("0.0.1")
                    .replaces("packageA.v1")
                    .provides("g", "v", "k"))
            .build();

    Resolution r =
        resolver.resolve(
            List.of(
                new CatalogSource("alt-community", 10, alt),
                new CatalogSource("community", 0, community)),
            List.of(sub("packageA-alpha", "community", "packageA", "alpha")),
            List.of(installed("packageA.v1", "packageA", "community", "alpha")));

    assertThat(chosen(r, "packageA-alpha")).isEqualTo("packageA.v0.0.1");
    assertThat(r.bySubscription().get("packageA-alpha").catalog()).isEqualTo("community");
    assertThat(r.bySubscription().get("packageA-alpha").isUpdate()).isTrue();
  }

  @Test
  void subscriptionWithoutChannelUsesTheDefaultChannel() {
    Catalog catalog =
        new TestCatalog()
            .defaultChannel("packageA", "stable")
            .add(
                b("packageA.v0.0.2")
                    .in("packageA", "alpha")
                    .version("0.0.2")
                    .replaces("packageA.v1")
                    .provides("g", "v", "k"),
                b("packageA.v0.0.1")
                    .in("packageA", "stable")
                    .version("0.0.1")
                    .replaces("packageA.v1")
                    .provides("g", "v", "k"))
            .build();

    Resolution r =
        resolve(catalog, List.of(sub("packageA", "test-catalog", "packageA", "")), List.of());

    assertThat(chosen(r, "packageA")).isEqualTo("packageA.v0.0.1");
    assertThat(r.bySubscription().get("packageA").channel()).isEqualTo("stable");
  }

  @Test
  void transitiveDependenciesPreferTheDefaultChannel() {
    Catalog catalog =
        new TestCatalog()
            .defaultChannel("packageA", "stable")
            .defaultChannel("packageB", "stable")
            .add(
                b("packageA.v0.0.1")
                    .in("packageA", "alpha")
                    .version("0.0.1")
                    .replaces("packageA.v1")
                    .requiresGvk("g", "v", "k"),
                b("packageB.v0.0.1")
                    .in("packageB", "stable")
                    .version("0.0.1")
                    .replaces("packageB.v1")
                    .provides("g", "v", "k"),
                b("packageB.v0.0.2")
                    .in("packageB", "alpha")
                    .version("0.0.2")
                    .replaces("packageB.v0.0.1")
                    .provides("g", "v", "k"))
            .build();

    Resolution r =
        resolve(
            catalog,
            List.of(sub("packageA-alpha", "test-catalog", "packageA", "alpha")),
            List.of());

    assertThat(chosen(r, "packageA-alpha")).isEqualTo("packageA.v0.0.1");
    assertThat(r.dependencies())
        .extracting(d -> d.channel() + "/" + d.bundle().name())
        .containsExactly("stable/packageB.v0.0.1");
  }

  @Test
  void installedSubscriptionUpdatesToTheHeadBySkipRange() {
    Catalog catalog =
        new TestCatalog()
            .add(b("a.v3").in("a", "alpha").version("1.0.0").replaces("a.v2").skipRange("< 1.0.0"))
            .build();

    Resolution r =
        resolve(
            catalog,
            List.of(sub("a-alpha", "test-catalog", "a", "alpha")),
            List.of(installed("a.v1", "a", "test-catalog", "alpha")));

    assertThat(chosen(r, "a-alpha")).isEqualTo("a.v3");
    assertThat(r.bySubscription().get("a-alpha").isUpdate()).isTrue();
  }

  @Test
  void skipRangeNotInHeadChoosesTheNextQualifyingEntry() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("a.v2").in("a", "alpha").version("1.0.0").skipRange("< 1.0.0"),
                b("a.v3").in("a", "alpha").version("1.0.0").replaces("a.v2").skipRange("< 1.0.0"),
                b("a.v4")
                    .in("a", "alpha")
                    .version("1.0.0")
                    .replaces("a.v3")
                    .skipRange("< 1.0.0 !0.0.0"))
            .build();

    Resolution r =
        resolve(
            catalog,
            List.of(sub("a-alpha", "test-catalog", "a", "alpha")),
            List.of(installed("a.v1", "a", "test-catalog", "alpha")));

    assertThat(chosen(r, "a-alpha")).isEqualTo("a.v3");
  }

  @Test
  void newSubscriptionWithStartingCsvInstallsThatBundle() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("a.v1").in("a", "alpha"),
                b("a.v2").in("a", "alpha").replaces("a.v1"),
                b("a.v3").in("a", "alpha").version("1.0.0").replaces("a.v2").skipRange("< 1.0.0"))
            .build();

    Resolution r =
        resolve(
            catalog,
            List.of(new SubscriptionRequest("a-alpha", "test-catalog", "a", "alpha", "a.v2", null)),
            List.of());

    assertThat(chosen(r, "a-alpha")).isEqualTo("a.v2");
  }

  @Test
  void conflictingSubscriptionsToTheSamePackageAreUnsatisfiable() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("a.v1").in("a", "alpha").provides("g", "v", "k"),
                b("a.v2").in("a", "beta").provides("g", "v", "k"))
            .build();

    Resolution r =
        resolve(
            catalog,
            List.of(
                sub("a-alpha", "test-catalog", "a", "alpha"),
                sub("a-beta", "test-catalog", "a", "beta")),
            List.of());

    assertThat(r.satisfiable()).isFalse();
    assertThat(r.message())
        .isEqualTo(
            "constraints not satisfiable: subscription a-alpha requires test-catalog/alpha/a.v1,"
                + " subscription a-alpha exists, subscription a-beta requires test-catalog/beta/a.v2, subscription a-beta exists,"
                + " test-catalog/alpha/a.v1 and test-catalog/beta/a.v2 originate from package a");
  }

  @Test
  void twoSubscriptionsToTheSamePackageShareOneBundle() {
    Catalog catalog =
        new TestCatalog().add(b("a.v1").in("a", "alpha").provides("g", "v", "k")).build();

    Resolution r =
        resolve(
            catalog,
            List.of(
                sub("a-alpha", "test-catalog", "a", "alpha"),
                sub("a-alpha-2", "test-catalog", "a", "alpha")),
            List.of());

    assertThat(chosen(r, "a-alpha")).isEqualTo("a.v1");
    assertThat(chosen(r, "a-alpha-2")).isEqualTo("a.v1");
  }

  @Test
  void secondSubscriptionConflictingWithAnInstalledProviderIsUnsatisfiable() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("a.v1").in("a", "alpha").provides("g", "v", "k"),
                b("b.v1").in("b", "alpha").provides("g", "v", "k"))
            .build();

    Resolution r =
        resolve(
            catalog,
            List.of(
                sub("a-alpha", "test-catalog", "a", "alpha"),
                sub("b-alpha", "test-catalog", "b", "alpha")),
            List.of(installed("a.v1", "a", "test-catalog", "alpha")));

    assertThat(r.satisfiable()).isFalse();
    assertThat(r.message()).startsWith("constraints not satisfiable: ").contains("provide k (g/v)");
  }
}
