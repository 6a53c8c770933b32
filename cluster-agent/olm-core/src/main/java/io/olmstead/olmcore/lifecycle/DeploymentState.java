package io.olmstead.olmcore.lifecycle;

/**
 * What the agent observed about one of the CSV's deployments: {@code available} (Available=True,
 * rollout done) or, if not, whether its Progressing condition has reason {@code
 * ProgressDeadlineExceeded}.
 */
public record DeploymentState(String name, boolean available, boolean progressDeadlineExceeded) {

  public static DeploymentState available(String name) {
    return new DeploymentState(name, true, false);
  }

  public static DeploymentState progressing(String name) {
    return new DeploymentState(name, false, false);
  }

  public static DeploymentState deadlineExceeded(String name) {
    return new DeploymentState(name, false, true);
  }
}
