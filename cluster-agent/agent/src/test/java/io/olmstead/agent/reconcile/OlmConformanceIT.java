package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.reconcile.ConformanceRules.Mode;
import io.olmstead.agent.testing.PlusCatalogs;
import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.agent.testing.TestCrds;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.ChannelEntry;
import io.olmstead.olmcore.fbc.ChannelGraph;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite: every package of {@code catalogs/bundled} and {@code bundled-plus}, its
 * default channel's newest bundle in every install mode its CSV supports, and the channel's last
 * upgrade edge in its first mode, installed on a simulated cluster (one per package) through {@link
 * PassDriver}, read back through the Kubernetes API and compared with OLM's rules ({@link
 * ConformanceRules} and {@link ConformanceChecks}); then uninstalled, leaving nothing.
 */
class OlmConformanceIT {
  private static final String NS = ConformanceRules.OPERATOR_NAMESPACE;

  /** One row of the table: what was installed and what differs from OLM (empty: conforms). */
  record Row(String packageName, String scenario, String bundle, List<String> findings) {
    String line() {
      return String.format(
          "%-38s %-22s %-44s %s",
          packageName, scenario, bundle, findings.isEmpty() ? "conforms" : "DIFFERS " + findings);
    }
  }

  @Test
  void everyBundledOperatorInstallsUpgradesAndUninstallsInEveryModeItSupportsAsOlmDoes()
      throws Exception {
    CatalogProvider provider =
        PlusCatalogs.provider(); // skips, saying why, without the shared catalogs
    Catalog catalog = provider.catalog(SharedCatalogs.CATALOG, null).orElseThrow();
    List<Row> rows = new ArrayList<>();
    for (CatalogPackage pkg :
        catalog.packages().stream().sorted(Comparator.comparing(CatalogPackage::name)).toList()) {
      CatalogProvider served = provider;
      CatalogPackage used = pkg;
      if (pkg.channel(pkg.defaultChannel()).isEmpty()) {
        // a copy naming a default channel it does not carry (strimzi's): served with its newest
        // channel as default
        Optional<String> newest = newestChannel(pkg);
        if (newest.isPresent()) {
          served = SharedCatalogs.bundledPlus(pkg.name(), newest.get());
          used =
              served.catalog(SharedCatalogs.CATALOG, null).orElseThrow().packages().stream()
                  .filter(p -> p.name().equals(pkg.name()))
                  .findFirst()
                  .orElseThrow();
        }
      }
      Optional<ChannelGraph> channel = used.channel(used.defaultChannel());
      if (channel.isEmpty() || channel.get().head().isEmpty()) {
        rows.add(new Row(pkg.name(), "-", "-", List.of("no usable default channel")));
        continue;
      }
      CatalogProvider packageCatalog = served;
      try (PassDriver driver = new PassDriver(() -> packageCatalog)) {
        driver.write(
            TestCrds.serviceMonitor()); // the cluster runs the Prometheus operator (kepler ships a
        // ServiceMonitor)
        for (String target : ConformanceRules.OTHER_NAMESPACES) {
          driver.write(
              TestCrds.namespace(target)); // Single/MultiNamespace targets exist, as they must
        }
        rows.addAll(runPackage(driver, used, channel.get()));
      }
    }
    String table = String.join("\n", rows.stream().map(Row::line).toList());
    System.out.println("OLM conformance (package, scenario, bundle, outcome):\n" + table);
    assertThat(rows)
        .as(table)
        .isNotEmpty()
        .allSatisfy(row -> assertThat(row.findings()).as(row.line()).isEmpty());
  }

  private List<Row> runPackage(PassDriver driver, CatalogPackage pkg, ChannelGraph channel)
      throws Exception {
    Bundle head = pkg.bundle(channel.head().orElseThrow()).orElseThrow();
    JsonNode csv = ConformanceRules.csv(head);
    List<Mode> modes = ConformanceRules.supported(csv);
    List<Row> rows = new ArrayList<>();
    for (Mode mode : modes) {
      SubscriptionToReconcile sub =
          subscription("conf-" + mode.name().toLowerCase(), pkg, channel, mode, null);
      List<String> findings = new ArrayList<>();
      ConformanceChecks checks = new ConformanceChecks(driver, sub.name(), findings);
      if (checks.installs(sub, head.name())) {
        checks.installedAsOlmDoes(csv, mode);
      }
      checks.uninstalls(csv);
      rows.add(new Row(pkg.name(), mode.name(), head.name(), findings));
    }
    Optional<String> previous =
        channel
            .entry(head.name())
            .map(ChannelEntry::replaces)
            .filter(p -> pkg.bundle(p).isPresent());
    if (modes.isEmpty() || previous.isEmpty()) {
      return rows;
    }
    Bundle from = pkg.bundle(previous.get()).orElseThrow();
    Mode mode = modes.get(0);
    List<String> findings = new ArrayList<>();
    if (!ConformanceRules.supported(ConformanceRules.csv(from)).contains(mode)) {
      findings.add(from.name() + " does not support " + mode);
    } else {
      ConformanceChecks checks = new ConformanceChecks(driver, "conf-upgrade", findings);
      if (checks.installs(
              subscription("conf-upgrade", pkg, channel, mode, from.versionText()), from.name())
          && checks.installs(subscription("conf-upgrade", pkg, channel, mode, null), head.name())) {
        checks.installedAsOlmDoes(csv, mode);
        checks.noStaleWebhookConfigurations(head.name());
      }
      checks.uninstalls(csv);
    }
    rows.add(
        new Row(
            pkg.name(),
            "upgrade " + mode.name(),
            from.name() + " -> " + head.versionText(),
            findings));
    return rows;
  }

  /** The channel, usable or not, whose head is the newest bundle of the package. */
  private static Optional<String> newestChannel(CatalogPackage pkg) {
    List<ChannelGraph> all = new ArrayList<>(pkg.channels().values());
    all.addAll(pkg.unusableChannels().values());
    return all.stream()
        .filter(c -> c.head().isPresent())
        .max(
            Comparator.comparing(
                c -> pkg.bundle(c.head().get()).flatMap(Bundle::version).orElse(null),
                Comparator.nullsFirst(Comparator.naturalOrder())))
        .map(ChannelGraph::name);
  }

  private static SubscriptionToReconcile subscription(
      String name, CatalogPackage pkg, ChannelGraph channel, Mode mode, String maxVersion) {
    return new SubscriptionToReconcile(
        name,
        SharedCatalogs.CATALOG,
        null,
        pkg.name(),
        channel.name(),
        NS,
        mode.targets(),
        SubscriptionToReconcile.Approval.AUTOMATIC,
        null,
        maxVersion,
        null,
        false,
        1,
        null);
  }

  static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.US_ASCII);
  }

  static List<ResourceKinds.Kind> labelledKinds() {
    List<ResourceKinds.Kind> kinds = new ArrayList<>(ResourceKinds.COMMON);
    kinds.add(
        new ResourceKinds.Kind(ConformanceChecks.ADMISSION, "ValidatingWebhookConfiguration"));
    kinds.add(new ResourceKinds.Kind(ConformanceChecks.ADMISSION, "MutatingWebhookConfiguration"));
    return kinds;
  }

  static String label(JsonNode o, String key) {
    return o.path("metadata").path("labels").path(key).asText("");
  }

  static boolean ownedBy(JsonNode o, String subscription) {
    return ManagedLabels.value(subscription).equals(label(o, ManagedLabels.SUBSCRIPTION));
  }
}
