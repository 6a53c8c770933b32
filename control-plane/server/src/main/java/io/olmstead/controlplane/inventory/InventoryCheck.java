package io.olmstead.controlplane.inventory;

import io.olmstead.apispec.protocol.Inventory;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the schema cannot say about an inventory report (it bounds every field on its own): an
 * operator listed twice, a CRD listed twice for one operator, a dependency of itself, a stack with
 * more pods than the cluster could run. Pure; a report that fails is ignored (counted), the
 * connection stays open.
 */
final class InventoryCheck {
  /** More pods than this in one stack is absurd (Kubernetes supports 150,000 pods per cluster). */
  static final int MAX_STACK_PODS = 150_000;

  private InventoryCheck() {}

  /** Why the report is refused, or null when it is acceptable. */
  static String refusal(Inventory inventory) {
    Set<String> subscriptions = new HashSet<>();
    long pods = 0;
    for (Inventory.Operator op : inventory.operators()) {
      if (!subscriptions.add(op.subscription())) {
        return "operator " + op.subscription() + " listed twice";
      }
      if (op.subscription().equals(op.dependencyOf())) {
        return "operator " + op.subscription() + " is a dependency of itself";
      }
      Set<String> crds = new HashSet<>();
      for (Inventory.CustomResources cr : nonNull(op.customResources())) {
        if (!crds.add(cr.name())) {
          return "operator " + op.subscription() + " lists CRD " + cr.name() + " twice";
        }
      }
      pods += op.pods() == null ? 0 : op.pods().count();
      for (Inventory.Stack stack : nonNull(op.stacks())) {
        pods += stack.pods().count();
      }
      if (pods > MAX_STACK_PODS) {
        return "more than " + MAX_STACK_PODS + " pods";
      }
    }
    return null;
  }

  static <T> List<T> nonNull(List<T> list) {
    return list == null ? List.of() : list;
  }
}
