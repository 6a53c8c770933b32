package io.olmstead.apispec.protocol;

import java.util.List;

/** A realistic inventory report: one subscription and the dependency it pulled in. */
final class InventorySamples {
  private InventorySamples() {}

  static Inventory one() {
    Inventory.Resources req = new Inventory.Resources(250, 268_435_456L);
    Inventory.Pods operatorPods =
        new Inventory.Pods(
            1,
            2,
            req,
            new Inventory.Resources(500, 536_870_912L),
            new Inventory.Resources(12, 100_000_000L));
    return new Inventory(
        1,
        null,
        "prod-eu-1",
        List.of(
            new Inventory.Operator(
                "etcd",
                "etcd",
                "etcd",
                "etcdoperator.v0.9.4",
                "0.9.4",
                "Succeeded",
                "InstallSucceeded",
                null,
                List.of(
                    new Inventory.CustomResources(
                        "etcdclusters.etcd.database.coreos.com", "EtcdCluster", 3, null)),
                operatorPods,
                List.of(
                    new Inventory.Stack(
                        "EtcdCluster",
                        "team-a",
                        "main",
                        new Inventory.Pods(3, 0, req, null, null)))),
            new Inventory.Operator(
                "etcd-db",
                "etcd",
                "db",
                "db.v1.0.0",
                "1.0.0",
                "Succeeded",
                null,
                "etcd",
                List.of(),
                null,
                null)),
        null);
  }
}
