package io.olmstead.olmcore.resolver;

import static io.olmstead.olmcore.resolver.ResolverUpstreamCasesTest.installed;
import static io.olmstead.olmcore.resolver.ResolverUpstreamCasesTest.sub;
import static io.olmstead.olmcore.resolver.TestCatalog.b;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.semver.Version;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Backtracking, preferences, ceilings, catalog priority and failure reporting of the resolver. */
class ResolverBehaviourTest {
  private final Resolver resolver = new Resolver();

  private Resolution resolve(
      Catalog catalog, List<SubscriptionRequest> subs, List<InstalledOperator> installed) {
    return resolver.resolve(List.of(new CatalogSource("cat", 0, catalog)), subs, installed);
  }

  private static Catalog appDbCache() {
    return new TestCatalog()
        .add(
            b("app.v1").in("app", "stable").version("1.0.0").requiresPackage("db", ">=1.0.0"),
            b("db.v2")
                .in("db", "stable")
                .version("2.0.0")
                .replaces("db.v1")
                .requiresPackage("cache", ">=2.0.0"),
            b("db.v1").in("db", "stable").version("1.0.0").requiresPackage("cache", ">=1.0.0"),
            b("cache.v2").in("cache", "stable").version("2.0.0").replaces("cache.v1"),
            b("cache.v1").in("cache", "stable").version("1.0.0"))
        .build();
  }

  @Test
  void backtracksWhenThePreferredDependencyConflictsWithAnotherSubscription() {
    SubscriptionRequest pinnedCache =
        new SubscriptionRequest("cache", "cat", "cache", "stable", null, Version.of(1, 5, 0));

    Resolution r =
        resolve(appDbCache(), List.of(sub("app", "cat", "app", "stable"), pinnedCache), List.of());

    assertThat(r.satisfiable()).as(r.message()).isTrue();
    assertThat(r.bySubscription().get("cache").bundle().name()).isEqualTo("cache.v1");
    assertThat(r.dependencies()).extracting(d -> d.bundle().name()).containsExactly("db.v1");
    assertThat(r.searchNodes()).isGreaterThan(1);
  }

  @Test
  void takesThePreferredDependencyWhenNothingConflicts() {
    Resolution r = resolve(appDbCache(), List.of(sub("app", "cat", "app", "stable")), List.of());

    assertThat(r.dependencies())
        .extracting(d -> d.bundle().name())
        .containsExactly("db.v2", "cache.v2");
  }

  @Test
  void installedDependentBlocksAnUpgradeThatBreaksIt() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("a-1").in("a", "default").version("1.0.0").requiresPackage("b", "1.0.0"),
                b("b-2").in("b", "default").version("2.0.0").replaces("b-1"),
                b("b-1").in("b", "default").version("1.0.0"))
            .build();

    Resolution r =
        resolve(
            catalog,
            List.of(sub("b", "cat", "b", "default")),
            List.of(
                installed("a-1", "a", "cat", "default"), installed("b-1", "b", "cat", "default")));

    assertThat(r.satisfiable()).as(r.message()).isTrue();
    assertThat(r.bySubscription()).isEmpty();
    assertThat(r.unchanged()).containsExactly("b");
  }

  @Test
  void installedOperatorIsPreferredForADependency() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("app.v1").in("app", "stable").version("1.0.0").requiresPackage("db", ">=1.0.0"),
                b("db.v2").in("db", "stable").version("2.0.0").replaces("db.v1"),
                b("db.v1").in("db", "stable").version("1.0.0"))
            .build();

    Resolution r =
        resolve(
            catalog,
            List.of(sub("app", "cat", "app", "stable")),
            List.of(installed("db.v1", "db", "cat", "stable")));

    assertThat(r.satisfiable()).as(r.message()).isTrue();
    assertThat(r.dependencies()).isEmpty();
  }

  @Test
  void maxVersionCeilingIgnoresNewerCandidatesForANewSubscription() {
    Resolution r =
        resolve(
            appDbCache(),
            List.of(
                new SubscriptionRequest("db", "cat", "db", "stable", null, Version.of(1, 9, 9))),
            List.of());

    assertThat(r.bySubscription().get("db").bundle().name()).isEqualTo("db.v1");
  }

  @Test
  void maxVersionCeilingStopsAnUpgrade() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("x.v3").in("x", "stable").version("3.0.0").replaces("x.v2").skipRange("<3.0.0"),
                b("x.v2").in("x", "stable").version("2.0.0").replaces("x.v1"),
                b("x.v1").in("x", "stable").version("1.0.0"))
            .build();
    List<InstalledOperator> installedX = List.of(installed("x.v1", "x", "cat", "stable"));

    Resolution capped =
        resolve(
            catalog,
            List.of(new SubscriptionRequest("x", "cat", "x", "stable", null, Version.of(2, 0, 0))),
            installedX);
    Resolution free = resolve(catalog, List.of(sub("x", "cat", "x", "stable")), installedX);
    Resolution below =
        resolve(
            catalog,
            List.of(new SubscriptionRequest("x", "cat", "x", "stable", null, Version.of(1, 0, 0))),
            installedX);

    assertThat(capped.bySubscription().get("x").bundle().name()).isEqualTo("x.v2");
    assertThat(free.bySubscription().get("x").bundle().name()).isEqualTo("x.v3");
    assertThat(below.unchanged()).containsExactly("x");
  }

  @Test
  void dependencyPrefersTheDependentsCatalogThenHigherPriority() {
    Catalog main =
        new TestCatalog()
            .add(b("app.v1").in("app", "stable").version("1.0.0").requiresPackage("db", ">=1.0.0"))
            .build();
    Catalog low = new TestCatalog().add(b("db.v1").in("db", "stable").version("1.0.0")).build();
    Catalog high = new TestCatalog().add(b("db.v1").in("db", "stable").version("1.0.0")).build();
    Catalog mainWithDb =
        new TestCatalog()
            .add(
                b("app.v1").in("app", "stable").version("1.0.0").requiresPackage("db", ">=1.0.0"),
                b("db.v1").in("db", "stable").version("1.0.0"))
            .build();
    List<SubscriptionRequest> subs = List.of(sub("app", "main", "app", "stable"));

    Resolution byPriority =
        resolver.resolve(
            List.of(
                new CatalogSource("low", -5, low),
                new CatalogSource("main", 0, main),
                new CatalogSource("high", 10, high)),
            subs,
            List.of());
    Resolution sameCatalog =
        resolver.resolve(
            List.of(new CatalogSource("high", 10, high), new CatalogSource("main", 0, mainWithDb)),
            subs,
            List.of());

    assertThat(byPriority.dependencies())
        .extracting(ResolvedBundle::catalog)
        .containsExactly("high");
    assertThat(sameCatalog.dependencies())
        .extracting(ResolvedBundle::catalog)
        .containsExactly("main");
  }

  @Test
  void reportsMissingCatalogPackageChannelAndStartingBundleInUpstreamWords() {
    Catalog catalog = appDbCache();
    assertThat(resolve(catalog, List.of(sub("s", "nope", "db", "stable")), List.of()).message())
        .isEqualTo(
            "constraints not satisfiable: subscription s exists, no operators found from catalog nope referenced by subscription s");
    assertThat(resolve(catalog, List.of(sub("s", "cat", "nope", "stable")), List.of()).message())
        .endsWith("no operators found in package nope in the catalog referenced by subscription s");
    assertThat(resolve(catalog, List.of(sub("s", "cat", "db", "beta")), List.of()).message())
        .endsWith(
            "no operators found in channel beta of package db in the catalog referenced by subscription s");
    assertThat(
            resolve(
                    catalog,
                    List.of(new SubscriptionRequest("s", "cat", "db", "stable", "db.v9", null)),
                    List.of())
                .message())
        .endsWith(
            "no operators found with name db.v9 in channel stable of package db in the catalog referenced by subscription s");
  }

  @Test
  void unsatisfiableVersionRangeIsExplainedWithTheMinimalConflict() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("app.v1").in("app", "stable").version("1.0.0").requiresPackage("db", ">=3.0.0"),
                b("db.v1").in("db", "stable").version("1.0.0"))
            .build();

    Resolution r =
        resolve(
            catalog,
            List.of(sub("app", "cat", "app", "stable"), sub("db", "cat", "db", "stable")),
            List.of());

    assertThat(r.message())
        .isEqualTo(
            "constraints not satisfiable: subscription app requires cat/stable/app.v1,"
                + " subscription app exists, bundle app.v1 requires an operator with package: db and with version in range: >=3.0.0");
  }

  @Test
  void standaloneInstalledOperatorMustStay() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("a.v1").in("a", "alpha").provides("g", "v", "k"),
                b("b.v1").in("b", "alpha").provides("g", "v", "k"))
            .build();

    Resolution r =
        resolve(
            catalog,
            List.of(sub("b", "cat", "b", "alpha")),
            List.of(installed("a.v1", "a", "cat", "alpha")));

    assertThat(r.message())
        .contains("clusterserviceversion a.v1 exists and is not referenced by a subscription")
        .contains("@existing/a.v1 and cat/alpha/b.v1 provide k (g/v)");
  }

  @Test
  void searchBudgetIsEnforcedAndReported() {
    Resolution r =
        new Resolver(1)
            .resolve(
                List.of(new CatalogSource("cat", 0, appDbCache())),
                List.of(sub("app", "cat", "app", "stable"), sub("cache", "cat", "cache", "stable")),
                List.of());

    assertThat(r.satisfiable()).isFalse();
    assertThat(r.budgetExceeded()).isTrue();
    assertThat(r.message()).contains("budget of 1 decisions");
  }

  @Test
  void aBundleWithAnImpossibleDependencyIsNotRetriedUnderEveryOtherChoice() {
    // 16 free binary choices, then a subscription whose two candidates both need something absent.
    TestCatalog catalog = new TestCatalog();
    List<SubscriptionRequest> subs = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      catalog.add(
          b("p" + i + ".v2").in("p" + i, "stable").version("2.0.0").replaces("p" + i + ".v1"),
          b("p" + i + ".v1").in("p" + i, "stable").version("1.0.0"));
      subs.add(sub("p" + i, "cat", "p" + i, "stable"));
    }
    catalog.add(
        b("last.v2")
            .in("last", "stable")
            .version("2.0.0")
            .replaces("last.v1")
            .requiresPackage("p0", ">=3.0.0"),
        b("last.v1").in("last", "stable").version("1.0.0").requiresPackage("p1", ">=3.0.0"));
    subs.add(sub("last", "cat", "last", "stable"));

    Resolution r =
        new Resolver(5_000)
            .resolve(List.of(new CatalogSource("cat", 0, catalog.build())), subs, List.of());

    assertThat(r.budgetExceeded()).isFalse();
    assertThat(r.searchNodes()).isLessThan(200);
    assertThat(r.message())
        .isEqualTo(
            "constraints not satisfiable: subscription last requires at least one of"
                + " cat/stable/last.v2 or cat/stable/last.v1, subscription last exists, bundle last.v2 requires an operator"
                + " with package: p0 and with version in range: >=3.0.0, bundle last.v1 requires an operator with package: p1"
                + " and with version in range: >=3.0.0");
  }

  @Test
  void pigeonholeConflictIsCutByTheBudget() {
    // 9 packages must each pick one of 8 APIs, at most one provider per API: unsatisfiable, and
    // hard for a
    // search without clause learning. The budget must stop it and say so.
    TestCatalog catalog = new TestCatalog();
    List<SubscriptionRequest> subs = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      for (int j = 0; j < 8; j++) {
        catalog.add(
            b("p" + i + ".h" + j)
                .in("p" + i, "stable")
                .version("1.0." + (8 - j))
                .replaces(j < 7 ? "p" + i + ".h" + (j + 1) : null)
                .provides("g", "v", "K" + j));
      }
      subs.add(sub("p" + i, "cat", "p" + i, "stable"));
    }

    Resolution r =
        new Resolver(5_000)
            .resolve(List.of(new CatalogSource("cat", 0, catalog.build())), subs, List.of());

    assertThat(r.satisfiable()).isFalse();
    assertThat(r.budgetExceeded()).isTrue();
    assertThat(r.searchNodes()).isGreaterThan(5_000);
  }

  @Test
  void nullAndEmptyInputsNeverThrow() {
    assertThat(resolver.resolve(null, null, null).satisfiable()).isTrue();
    List<SubscriptionRequest> weird = new ArrayList<>();
    weird.add(null);
    weird.add(new SubscriptionRequest(null, null, null, null, null, null));
    assertThat(
            resolver
                .resolve(List.of(new CatalogSource("cat", 0, appDbCache())), weird, List.of())
                .satisfiable())
        .isFalse();
  }
}
