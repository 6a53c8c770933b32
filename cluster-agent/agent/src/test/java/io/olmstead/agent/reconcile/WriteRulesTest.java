package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.olmstead.agent.k8s.ManagedLabels;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which existing objects a drive may change, and when drift restores go ahead. */
class WriteRulesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode owned(String subscription) throws Exception {
    return JSON.readTree(
        "{\"kind\":\"ClusterRole\",\"metadata\":{\"name\":\"op-role\",\"labels\":{\""
            + ManagedLabels.MANAGED_BY
            + "\":\"olmstead\",\""
            + ManagedLabels.SUBSCRIPTION
            + "\":\""
            + subscription
            + "\"}}}");
  }

  @Test
  void anObjectOfAnotherLiveSubscriptionIsRefusedNamingTheOwner() throws Exception {
    WriteRules rules = new WriteRules("mine", Map.of("theirs", "theirs"), null);
    assertThat(rules.ownership().check(owned("theirs")))
        .hasValue("ClusterRole op-role is owned by another subscription on this cluster");
    assertThat(rules.conflict())
        .isEqualTo("ClusterRole op-role is owned by another subscription on this cluster");
  }

  @Test
  void ownObjectsLeftoversOfGoneSubscriptionsAndUnmanagedObjectsMayBeWritten() throws Exception {
    WriteRules rules = new WriteRules("mine", Map.of("theirs", "theirs"), null);
    assertThat(rules.ownership().check(owned("mine"))).isEmpty();
    assertThat(rules.ownership().check(owned("gone"))).isEmpty();
    assertThat(
            rules
                .ownership()
                .check(JSON.readTree("{\"kind\":\"Service\",\"metadata\":{\"name\":\"x\"}}")))
        .isEmpty();
    assertThat(rules.conflict()).isNull();
  }

  @Test
  void restoresAreGatedOnlyWhenTheBundleWasAppliedBefore() {
    assertThat(new WriteRules("mine", Map.of(), null).gate()).isNull();
    WriteRules restoring = new WriteRules("mine", Map.of(), new RestoreBackoff());
    assertThat(restoring.gate().mayWrite("Role/ns/r")).isTrue();
    assertThat(restoring.gate().mayWrite("Role/ns/r")).isFalse();
  }
}
