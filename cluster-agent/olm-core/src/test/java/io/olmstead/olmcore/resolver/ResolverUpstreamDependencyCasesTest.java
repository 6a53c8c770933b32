package io.olmstead.olmcore.resolver;

import static io.olmstead.olmcore.resolver.ResolverUpstreamCasesTest.installed;
import static io.olmstead.olmcore.resolver.ResolverUpstreamCasesTest.sub;
import static io.olmstead.olmcore.resolver.TestCatalog.b;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.olmcore.fbc.Catalog;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * More upstream resolver cases, around dependencies and installed operators (resolver_test.go,
 * step_resolver_test.go).
 */
class ResolverUpstreamDependencyCasesTest {
  private final Resolver resolver = new Resolver();

  /** Every bundle to install, as bundle name to catalog. */
  private static Map<String, String> installs(Resolution r) {
    assertThat(r.satisfiable()).as(r.message()).isTrue();
    return Stream.concat(r.bySubscription().values().stream(), r.dependencies().stream())
        .collect(Collectors.toMap(b -> b.bundle().name(), ResolvedBundle::catalog));
  }

  @Test
  void findsTheLatestVersionsWithNestedDependencies() {
    Catalog community =
        new TestCatalog()
            .add(
                b("packageA.v1.0.1")
                    .in("packageA", "alpha")
                    .version("1.0.1")
                    .replaces("packageA.v1"),
                b("packageB.v0.9.0").in("packageB", "alpha").version("0.9.0"),
                b("packageB.v1.0.0")
                    .in("packageB", "alpha")
                    .version("1.0.0")
                    .replaces("packageB.v0.9.0"),
                b("packageB.v1.0.1")
                    .in("packageB", "alpha")
                    .version("1.0.1")
                    .replaces("packageB.v1.0.0")
                    .requiresPackage("packageC", "1.0.1")
                    .requiresPackage("packageD", "1.0.1"),
                b("packageC.v1.0.0")
                    .in("packageC", "alpha")
                    .version("1.0.0")
                    .requiresPackage("packageE", "1.0.1"),
                b("packageC.v1.0.1")
                    .in("packageC", "alpha")
                    .version("1.0.1")
                    .replaces("packageC.v1.0.0")
                    .requiresPackage("packageE", "1.0.1"),
                b("packageD.v1.0.1").in("packageD", "alpha").version("1.0.1"),
                b("packageE.v1.0.1")
                    .in("packageE", "alpha")
                    .version("1.0.1")
                    .replaces("packageE.v1.0.0"),
                b("packageE.v1.0.0").in("packageE", "alpha").version("1.0.0"))
            .build();

    Resolution r =
        resolver.resolve(
            List.of(new CatalogSource("community", 0, community)),
            List.of(
                sub("packageA-alpha", "community", "packageA", "alpha"),
                sub("packageB-alpha", "community", "packageB", "alpha")),
            List.of(installed("packageA.v1", "packageA", "community", "alpha")));

    assertThat(installs(r))
        .containsOnlyKeys(
            "packageA.v1.0.1",
            "packageB.v1.0.1",
            "packageC.v1.0.1",
            "packageD.v1.0.1",
            "packageE.v1.0.1");
  }

  @Test
  void ignoresACandidateWhoseOwnDependencyCannotBeMet() {
    Catalog community =
        new TestCatalog()
            .add(
                b("packageA.v1").in("packageA", "alpha").version("0.0.1"),
                b("packageB.v1")
                    .in("packageB", "alpha")
                    .version("1.0.0")
                    .requiresPackage("packageC", "0.1.0"),
                b("packageC.v1")
                    .in("packageC", "alpha")
                    .version("0.1.0")
                    .requiresPackage("packageD", "0.1.0"))
            .build();
    Catalog certified =
        new TestCatalog()
            .add(
                b("packageA.v1").in("packageA", "alpha").version("0.0.1"),
                b("packageB.v1")
                    .in("packageB", "alpha")
                    .version("1.0.0")
                    .requiresPackage("packageC", "0.1.0"),
                b("packageC.v1").in("packageC", "alpha").version("0.1.0"))
            .build();

    Resolution r =
        resolver.resolve(
            List.of(
                new CatalogSource("community", 0, community),
                new CatalogSource("certified", 0, certified)),
            List.of(
                sub("packageA-alpha", "community", "packageA", "alpha"),
                sub("packageB-alpha", "community", "packageB", "alpha")),
            List.of(installed("packageA.v1", "packageA", "community", "alpha")));

    assertThat(installs(r))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("packageB.v1", "community", "packageC.v1", "certified"));
    assertThat(r.unchanged()).containsExactly("packageA-alpha");
  }

  @Test
  void noMoreVersionDeadlockBetweenMutuallyDependentUpgrades() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("a.v1").in("a", "alpha").provides("g1", "v", "k").requiresGvk("g2", "v", "k"),
                b("a.v2")
                    .in("a", "alpha")
                    .replaces("a.v1")
                    .provides("g3", "v", "k")
                    .requiresGvk("g4", "v", "k"),
                b("b.v1").in("b", "alpha").provides("g2", "v", "k").requiresGvk("g1", "v", "k"),
                b("b.v2")
                    .in("b", "alpha")
                    .replaces("b.v1")
                    .provides("g4", "v", "k")
                    .requiresGvk("g3", "v", "k"))
            .build();

    Resolution r =
        resolver.resolve(
            List.of(new CatalogSource("catalog", 0, catalog)),
            List.of(
                sub("a-alpha", "catalog", "a", "alpha"), sub("b-alpha", "catalog", "b", "alpha")),
            List.of(
                installed("a.v1", "a", "catalog", "alpha"),
                installed("b.v1", "b", "catalog", "alpha")));

    assertThat(installs(r)).containsOnlyKeys("a.v2", "b.v2");
    assertThat(r.bySubscription().values()).allMatch(ResolvedBundle::isUpdate);
  }

  @Test
  void ownershipOfAnApiMovesBetweenOperators() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("a.v1").in("a", "alpha").provides("g1", "v", "k"),
                b("a.v2").in("a", "alpha").replaces("a.v1"),
                b("b.v1").in("b", "alpha").requiresGvk("g1", "v", "k"),
                b("b.v2").in("b", "alpha").replaces("b.v1").provides("g1", "v", "k"))
            .build();

    Resolution r =
        resolver.resolve(
            List.of(new CatalogSource("catalog", 0, catalog)),
            List.of(
                sub("a-alpha", "catalog", "a", "alpha"), sub("b-alpha", "catalog", "b", "alpha")),
            List.of(
                installed("a.v1", "a", "catalog", "alpha"),
                installed("b.v1", "b", "catalog", "alpha")));

    assertThat(installs(r)).containsOnlyKeys("a.v2", "b.v2");
  }

  @Test
  void picksTheOlderProviderWhenOnlyItProvidesTheApi() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("a.v1").in("a", "alpha").provides("g", "v", "k"),
                b("a.v2").in("a", "alpha").replaces("a.v1"),
                b("b.v1").in("b", "alpha").requiresGvk("g", "v", "k"))
            .build();

    Resolution r =
        resolver.resolve(
            List.of(new CatalogSource("catalog", 0, catalog)),
            List.of(sub("b-alpha", "catalog", "b", "alpha")),
            List.of());

    assertThat(installs(r)).containsOnlyKeys("a.v1", "b.v1");
  }

  @Test
  void anUpdateThatRequiresAnApiPullsInItsProvider() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("a.v1").in("a", "alpha"),
                b("a.v2").in("a", "alpha").replaces("a.v1").requiresGvk("g", "v", "k"),
                b("b.v1").in("b", "beta").provides("g", "v", "k"))
            .build();

    Resolution r =
        resolver.resolve(
            List.of(new CatalogSource("catalog", 0, catalog)),
            List.of(sub("a-alpha", "catalog", "a", "alpha")),
            List.of(installed("a.v1", "a", "catalog", "alpha")));

    assertThat(installs(r)).containsOnlyKeys("a.v2", "b.v1");
    assertThat(r.dependencies()).extracting(ResolvedBundle::channel).containsExactly("beta");
  }

  @Test
  void subscriptionlessInstalledOperatorSatisfiesADependency() {
    Catalog catalog =
        new TestCatalog()
            .add(
                b("packageA.v1").in("packageA", "alpha").provides("g", "v", "k"),
                b("packageB.v1.0.0")
                    .in("packageB", "alpha")
                    .version("1.0.0")
                    .requiresGvk("g", "v", "k"),
                b("packageB.v1.0.1")
                    .in("packageB", "alpha")
                    .version("1.0.1")
                    .replaces("packageB.v1.0.0")
                    .requiresGvk("g", "v", "k"))
            .build();

    Resolution r =
        resolver.resolve(
            List.of(new CatalogSource("community", 0, catalog)),
            List.of(sub("packageB-alpha", "community", "packageB", "alpha")),
            List.of(installed("packageA.v1", "packageA", "community", "alpha")));

    assertThat(installs(r)).containsOnlyKeys("packageB.v1.0.1");
  }
}
