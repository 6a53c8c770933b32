package io.olmstead.agent.config;

/** Where the agent runs relative to the guest cluster it manages. */
public enum AgentMode {
  /** Inside the guest cluster, using the pod's service account (in-cluster config). */
  IN_GUEST("in-guest"),
  /**
   * In a hosted control plane namespace on the management cluster, reaching the guest API through a
   * kubeconfig.
   */
  HOSTED("hosted");

  private final String text;

  AgentMode(String text) {
    this.text = text;
  }

  /** The value used in {@code OLMSTEAD_AGENT_MODE}. */
  public String text() {
    return text;
  }

  static AgentMode parse(String value) throws ConfigException {
    for (AgentMode mode : values()) {
      if (mode.text.equalsIgnoreCase(value.trim())) {
        return mode;
      }
    }
    throw new ConfigException(
        "OLMSTEAD_AGENT_MODE must be 'in-guest' or 'hosted', not '" + value + "'");
  }
}
