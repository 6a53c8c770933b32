package io.olmstead.agent.hollow;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.agent.Main;
import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.SchemaDecoder;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class HollowInventoryTest {
  private static final SubscriptionStatus ETCD =
      new SubscriptionStatus(
          "etcd",
          "etcd.v0.9.4",
          "0.9.4",
          "0.9.4",
          "Succeeded",
          "InstallSucceeded",
          "done",
          List.of(),
          1L);

  @Test
  void aHollowInventoryHasTheInstalledSubscriptionsThenMadeUpOperatorsAndPassesTheSchema() {
    Inventory report = HollowInventory.of(List.of(ETCD), 20, 1);
    assertThat(report.operators()).hasSize(20);
    assertThat(report.operators().get(0).subscription()).isEqualTo("etcd");
    assertThat(report.operators().get(0).version()).isEqualTo("0.9.4");
    assertThat(report.operators().get(1).customResources()).hasSize(2);
    assertThat(SchemaDecoder.violation(report)).isNull();
  }

  @Test
  void successiveRoundsDifferAndTheOperatorCountIsBounded() {
    assertThat(HollowInventory.of(List.of(), 20, 1))
        .isNotEqualTo(HollowInventory.of(List.of(), 20, 2));
    assertThat(HollowInventory.of(List.of(), 5000, 1).operators())
        .hasSize(HollowInventory.MAX_OPERATORS);
    assertThat(HollowInventory.of(List.of(ETCD), 0, 1).operators()).isEmpty();
  }

  @Test
  void inventoryOperatorsOutOfRangeIsRefusedNamingTheOption() {
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            new String[] {
              "hollow",
              "--count",
              "1",
              "--control-plane",
              "http://127.0.0.1:1",
              "--token",
              "t",
              "--inventory-operators",
              "201"
            },
            new PrintWriter(new StringWriter()),
            new PrintWriter(err));
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("--inventory-operators must be between 0 and 200");
  }
}
