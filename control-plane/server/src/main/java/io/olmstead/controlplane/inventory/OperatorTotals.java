package io.olmstead.controlplane.inventory;

import io.olmstead.apispec.protocol.Inventory;

/**
 * The sums of one reported operator that the fleet aggregate and the metrics group by package and
 * version.
 */
record OperatorTotals(
    long customResources,
    int pods,
    long restarts,
    long requestedCpu,
    long requestedMemory,
    Long usedCpu,
    Long usedMemory,
    int stackPods,
    long stackCpu,
    long stackMemory,
    Long stackUsedCpu,
    Long stackUsedMemory) {

  static OperatorTotals of(Inventory.Operator op) {
    long crs =
        InventoryCheck.nonNull(op.customResources()).stream()
            .mapToLong(Inventory.CustomResources::count)
            .sum();
    Inventory.Pods own = op.pods();
    int stackPods = 0;
    long stackCpu = 0;
    long stackMemory = 0;
    Long stackUsedCpu = null;
    Long stackUsedMemory = null;
    for (Inventory.Stack stack : InventoryCheck.nonNull(op.stacks())) {
      stackPods += stack.pods().count();
      stackCpu += stack.pods().requests().cpuMillis();
      stackMemory += stack.pods().requests().memoryBytes();
      if (stack.pods().usage() != null) {
        stackUsedCpu = (stackUsedCpu == null ? 0 : stackUsedCpu) + stack.pods().usage().cpuMillis();
        stackUsedMemory =
            (stackUsedMemory == null ? 0 : stackUsedMemory) + stack.pods().usage().memoryBytes();
      }
    }
    return new OperatorTotals(
        crs,
        own == null ? 0 : own.count(),
        own == null ? 0 : own.restarts(),
        own == null ? 0 : own.requests().cpuMillis(),
        own == null ? 0 : own.requests().memoryBytes(),
        own == null || own.usage() == null ? null : own.usage().cpuMillis(),
        own == null || own.usage() == null ? null : own.usage().memoryBytes(),
        stackPods,
        stackCpu,
        stackMemory,
        stackUsedCpu,
        stackUsedMemory);
  }
}
