package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class DescribeInstallModeTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ObjectNode subscription(String mode, String... targets) {
    ObjectNode s = JSON.createObjectNode().put("name", "db").put("namespace", "ns-a");
    if (mode == null) {
      s.putNull("installMode");
    } else {
      s.put("installMode", mode);
    }
    var list = s.putArray("targetNamespaces");
    for (String t : targets) {
      list.add(t);
    }
    return s;
  }

  @Test
  void describeShowsTheInstallModeWithItsTargetsOrThatTheBundleDecides() {
    assertThat(DescribeCommand.installMode(subscription("SingleNamespace", "t1")))
        .isEqualTo("SingleNamespace (targets t1)");
    assertThat(DescribeCommand.installMode(subscription("MultiNamespace", "t1", "t2")))
        .isEqualTo("MultiNamespace (targets t1,t2)");
    assertThat(DescribeCommand.installMode(subscription("OwnNamespace"))).isEqualTo("OwnNamespace");
    assertThat(DescribeCommand.installMode(subscription(null)))
        .isEqualTo("decided by the bundle (AllNamespaces where supported, else OwnNamespace)");
  }
}
