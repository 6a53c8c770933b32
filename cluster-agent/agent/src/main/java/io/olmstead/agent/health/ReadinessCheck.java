package io.olmstead.agent.health;

import java.util.Optional;

/**
 * One condition of readiness: empty when it holds, else what is wrong (shown in the {@code /readyz}
 * body).
 */
@FunctionalInterface
public interface ReadinessCheck {
  Optional<String> problem();
}
