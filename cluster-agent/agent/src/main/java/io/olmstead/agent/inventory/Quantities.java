package io.olmstead.agent.inventory;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

/**
 * Kubernetes quantities as millicores and bytes (absent or malformed: 0), summed per resource map.
 */
final class Quantities {
  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
  private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE / 4);

  private Quantities() {}

  static long cpuMillis(Map<String, Quantity> resources) {
    return amount(resources, "cpu", THOUSAND);
  }

  static long memoryBytes(Map<String, Quantity> resources) {
    return amount(resources, "memory", BigDecimal.ONE);
  }

  private static long amount(Map<String, Quantity> resources, String name, BigDecimal scale) {
    Quantity q = resources == null ? null : resources.get(name);
    if (q == null) {
      return 0;
    }
    try {
      BigDecimal value = q.getNumericalAmount().multiply(scale);
      // ceil like the kubelet rounds requests up; clamped so that sums cannot overflow
      return value.signum() <= 0
          ? 0
          : value.min(MAX).setScale(0, RoundingMode.CEILING).longValueExact();
    } catch (RuntimeException e) {
      return 0;
    }
  }
}
