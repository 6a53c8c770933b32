package io.olmstead.agent.pool;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * A guest kubeconfig that is not valid YAML (a truncated Secret, say) fails to parse with a message
 * that the pool logs ("guest not served yet (...)") at every check: YAML parsers quote the
 * offending line, which can hold the guest's admin token, so the message names only where the error
 * is.
 */
class GuestKubeconfigParseTest {
  private static final String TOKEN = "sha256~GUESTADMINTOKEN";

  @Test
  void aKubeconfigThatIsNotYamlFailsWithoutQuotingItsCredentials() {
    String truncated =
        "apiVersion: v1\nclusters:\n- cluster:\n    server: https://guest:6443\n  name: guest\n"
            + "users:\n- name: admin\n  user:\n    token: \""
            + TOKEN
            + "\n";
    String mangled =
        "apiVersion: v1\nusers:\n- name: admin\n  user:\n    token: " + TOKEN + ": [\n";
    try (GuestClients clients = new GuestClients(1)) {
      for (String kubeconfig : new String[] {truncated, mangled}) {
        assertThatThrownBy(() -> clients.forKubeconfig(kubeconfig))
            .satisfies(
                e -> {
                  org.assertj.core.api.Assertions.assertThat(e)
                      .hasMessageNotContaining("GUESTADMINTOKEN")
                      .hasMessageContaining("kubeconfig")
                      .hasNoCause();
                });
      }
    }
  }
}
