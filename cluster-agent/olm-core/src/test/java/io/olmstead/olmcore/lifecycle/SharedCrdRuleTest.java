package io.olmstead.olmcore.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.olmcore.lifecycle.SharedCrdRule.Action;
import io.olmstead.olmcore.lifecycle.SharedCrdRule.Existing;
import io.olmstead.olmcore.lifecycle.SharedCrdRule.Writer;
import org.junit.jupiter.api.Test;

class SharedCrdRuleTest {
  private static final Writer OLD_IN_A = new Writer("etcd", "0.9.2", "ns-a/etcd");
  private static final Writer NEW_IN_B = new Writer("etcd", "0.9.4", "ns-b/etcd");

  private static Action decide(Writer recorded, boolean installed, Writer mine) {
    return SharedCrdRule.decide(new Existing(recorded, installed), mine).action();
  }

  @Test
  void aMissingCrdIsWritten() {
    assertThat(SharedCrdRule.decide(null, OLD_IN_A).writes()).isTrue();
  }

  @Test
  void aCrdWithoutARecordedWriterIsWritten() {
    assertThat(decide(null, false, OLD_IN_A)).isEqualTo(Action.WRITE);
  }

  @Test
  void theNewerVersionReplacesTheOlderOnesSchema() {
    assertThat(decide(OLD_IN_A, true, NEW_IN_B)).isEqualTo(Action.WRITE);
  }

  @Test
  void theOlderVersionNeverReplacesTheNewerOnesSchemaEvenWhenThatInstallIsGone() {
    assertThat(decide(NEW_IN_B, true, OLD_IN_A)).isEqualTo(Action.KEEP);
    assertThat(decide(NEW_IN_B, false, OLD_IN_A)).isEqualTo(Action.KEEP);
    assertThat(SharedCrdRule.decide(new Existing(NEW_IN_B, true), OLD_IN_A).reason())
        .isEqualTo("version 0.9.4 (ns-b/etcd) is newer and keeps its CRD");
  }

  @Test
  void versionsCompareBySemverNotAsText() {
    Writer ten = new Writer("etcd", "0.10.0", "ns-a/etcd");
    Writer nine = new Writer("etcd", "0.9.0", "ns-b/etcd");
    assertThat(decide(nine, true, ten)).isEqualTo(Action.WRITE);
    assertThat(decide(ten, true, nine)).isEqualTo(Action.KEEP);
  }

  @Test
  void theWriterItselfRestoresItsCrdWhateverTheVersion() {
    Writer rolledBack = new Writer("etcd", "0.9.2", "ns-b/etcd");
    assertThat(decide(NEW_IN_B, true, NEW_IN_B)).isEqualTo(Action.WRITE);
    assertThat(decide(NEW_IN_B, true, rolledBack)).isEqualTo(Action.WRITE);
  }

  @Test
  void atTheSameVersionOnlyTheWriterRestoresUntilItIsUninstalled() {
    Writer sameInB = new Writer("etcd", "0.9.2", "ns-b/etcd");
    assertThat(decide(OLD_IN_A, true, sameInB)).isEqualTo(Action.KEEP);
    assertThat(decide(OLD_IN_A, false, sameInB)).isEqualTo(Action.WRITE);
  }

  @Test
  void anotherPackagesCrdIsKeptWhileThatPackageIsInstalled() {
    Writer other = new Writer("etcd-fork", "9.0.0", "ns-c/fork");
    assertThat(decide(other, true, OLD_IN_A)).isEqualTo(Action.KEEP);
    assertThat(decide(other, false, OLD_IN_A)).isEqualTo(Action.WRITE);
  }

  @Test
  void anUnparseableVersionCountsAsTheSameVersion() {
    Writer odd = new Writer("etcd", "latest", "ns-c/etcd");
    assertThat(decide(odd, true, OLD_IN_A)).isEqualTo(Action.KEEP);
    assertThat(decide(odd, false, OLD_IN_A)).isEqualTo(Action.WRITE);
  }
}
