package io.olmstead.olmcore.resolver;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.ChannelEntry;
import io.olmstead.olmcore.fbc.ChannelGraph;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The resolver against the real catalogs of ../shared/catalogs (skipped when absent). */
class RealCatalogResolverTest {
  private final Resolver resolver = new Resolver();

  @Test
  void subscribingTheTopologyOperatorPullsInTheClusterOperator() {
    Catalog bundled = RealCatalogs.bundled();

    Resolution r =
        resolver.resolve(
            List.of(new CatalogSource("bundled", 0, bundled)),
            List.of(
                new SubscriptionRequest(
                    "topology",
                    "bundled",
                    "rabbitmq-messaging-topology-operator",
                    null,
                    null,
                    null)),
            List.of());

    assertThat(r.satisfiable()).as(r.message()).isTrue();
    assertThat(r.bySubscription().get("topology").bundle().name())
        .isEqualTo("rabbitmq-messaging-topology-operator.v1.19.3");
    assertThat(r.dependencies())
        .extracting(d -> d.bundle().packageName())
        .containsExactly("rabbitmq-cluster-operator");
    assertThat(r.dependencies().get(0).bundle().name())
        .isEqualTo("rabbitmq-cluster-operator.v2.22.3");
  }

  @Test
  void anInstalledClusterOperatorSatisfiesTheTopologyOperator() {
    Catalog bundled = RealCatalogs.bundled();

    Resolution r =
        resolver.resolve(
            List.of(new CatalogSource("bundled", 0, bundled)),
            List.of(
                new SubscriptionRequest(
                    "topology",
                    "bundled",
                    "rabbitmq-messaging-topology-operator",
                    null,
                    null,
                    null)),
            List.of(
                new InstalledOperator(
                    "rabbitmq-cluster-operator.v2.20.0",
                    "rabbitmq-cluster-operator",
                    "bundled",
                    null)));

    assertThat(r.satisfiable()).as(r.message()).isTrue();
    assertThat(r.dependencies()).isEmpty();
  }

  @Test
  void everyValidChannelHeadOfTheDerivedHistoryResolvesOrNamesItsConflict() {
    Catalog derived = RealCatalogs.derivedAllHistory();
    List<CatalogSource> catalogs = List.of(new CatalogSource("derived", 0, derived));
    int resolved = 0;
    List<String> conflicts = new ArrayList<>();
    for (CatalogPackage pkg : derived.packages()) {
      for (ChannelGraph channel : pkg.channels().values()) {
        String head = channel.head().orElseThrow();
        Resolution r =
            resolver.resolve(
                catalogs,
                List.of(
                    new SubscriptionRequest(
                        "s", "derived", pkg.name(), channel.name(), head, null)),
                List.of());
        if (r.satisfiable()) {
          resolved++;
          assertThat(r.bySubscription().get("s").bundle().name()).isEqualTo(head);
          r.dependencies()
              .forEach(d -> assertThat(d.bundle().packageName()).isNotEqualTo(pkg.name()));
        } else {
          assertThat(r.budgetExceeded()).as(r.message()).isFalse();
          assertThat(r.message())
              .startsWith("constraints not satisfiable: subscription s requires derived/")
              .contains("bundle " + head + " requires an operator");
          conflicts.add(r.message());
        }
      }
    }
    assertThat(resolved + conflicts.size()).isEqualTo(derived.channelCount());
    assertThat(resolved).isGreaterThan(conflicts.size());
  }

  @Test
  void upgradesInTheDerivedHistoryFollowTheChannelGraphOneEdgeAtATime() {
    Catalog derived = RealCatalogs.derivedAllHistory();
    List<CatalogSource> catalogs = List.of(new CatalogSource("derived", 0, derived));
    int checked = 0;
    for (CatalogPackage pkg : derived.packages()) {
      ChannelGraph channel = pkg.channel(null).orElse(null);
      if (channel == null || channel.candidatesInOrder().size() < 2) {
        continue;
      }
      List<ChannelEntry> order = channel.candidatesInOrder();
      String tail = order.get(order.size() - 1).name();
      Resolution r =
          resolver.resolve(
              catalogs,
              List.of(new SubscriptionRequest("s", "derived", pkg.name(), null, null, null)),
              List.of(new InstalledOperator(tail, pkg.name(), "derived", channel.name())));
      if (!r.satisfiable() || r.bySubscription().isEmpty()) {
        continue;
      }
      String next = r.bySubscription().get("s").bundle().name();
      assertThat(
              channel.successorsOf(
                  tail, pkg.bundle(tail).orElseThrow().version().orElse(null), null))
          .extracting(ChannelEntry::name)
          .contains(next);
      checked++;
    }
    assertThat(checked).isGreaterThan(50);
  }
}
