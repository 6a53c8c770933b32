package io.olmstead.agent.hollow;

import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.ProtocolVersions;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The inventory a hollow cluster reports (load generation for inventory ingestion): its installed
 * subscriptions, then made-up operators up to {@code operators} in all, each with two CRDs (one
 * count moving with the round, so every report differs as a real one after a change does), its
 * pods' requests and one application stack. Pure.
 */
final class HollowInventory {
  static final int MAX_OPERATORS = Inventory.MAX_OPERATORS;

  private HollowInventory() {}

  static Inventory of(Collection<SubscriptionStatus> installed, int operators, long round) {
    Inventory.Resources r = new Inventory.Resources(100, 128L << 20);
    List<Inventory.Operator> ops = new ArrayList<>();
    for (SubscriptionStatus s : installed) {
      if (ops.size() < operators && "Succeeded".equals(s.phase())) {
        ops.add(
            operator(
                s.name(),
                s.name(),
                s.installedBundle(),
                s.installedVersion(),
                round,
                ops.size(),
                r));
      }
    }
    for (int i = 0; ops.size() < Math.min(operators, MAX_OPERATORS); i++) {
      ops.add(
          operator(
              "hollow-op-" + i,
              "hollow-package-" + i,
              "hollow-package-" + i + ".v1.0." + (i % 3),
              "1.0." + (i % 3),
              round,
              ops.size(),
              r));
    }
    return new Inventory(ProtocolVersions.CURRENT, null, null, ops, null);
  }

  private static Inventory.Operator operator(
      String subscription,
      String pkg,
      String bundle,
      String version,
      long round,
      int i,
      Inventory.Resources r) {
    return new Inventory.Operator(
        subscription,
        "ns-" + i,
        pkg,
        bundle,
        version,
        "Succeeded",
        "InstallSucceeded",
        null,
        List.of(
            new Inventory.CustomResources(
                "things" + i + ".hollow.olmstead.io", "Thing", (round + i) % 50, null),
            new Inventory.CustomResources("others" + i + ".hollow.olmstead.io", "Other", 3, null)),
        new Inventory.Pods(1, 0, r, r, null),
        List.of(
            new Inventory.Stack(
                "Thing", "app", "thing-1", new Inventory.Pods(2, 0, r, null, null))));
  }
}
