package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RegistryQueuesTest {

  static List<String> drain(RegistryQueues<String> q) {
    List<String> out = new ArrayList<>();
    for (Optional<RegistryQueues.Taken<String>> t = q.next(); t.isPresent(); t = q.next()) {
      out.add(t.get().item());
    }
    return out;
  }

  @Test
  void oneRegistryNeverHoldsEveryWorker() {
    RegistryQueues<String> q = new RegistryQueues<>(4, 4);
    for (int i = 0; i < 8; i++) {
      q.add("silent.example", "s" + i);
    }
    assertThat(drain(q)).containsExactly("s0", "s1", "s2");
    assertThat(q.waiting("silent.example")).isEqualTo(5);

    q.add("quay.io", "healthy");
    assertThat(drain(q)).containsExactly("healthy");
  }

  @Test
  void thePerRegistryLimitCapsTheShareBelowTheWorkers() {
    assertThat(RegistryQueues.shareOf(8, 2)).isEqualTo(2);
    assertThat(RegistryQueues.shareOf(4, 4)).isEqualTo(3);
    assertThat(RegistryQueues.shareOf(1, 4)).isEqualTo(1);
  }

  @Test
  void registriesTakeTurnsForFreeWorkers() {
    RegistryQueues<String> q = new RegistryQueues<>(2, 2);
    q.add("a", "a1");
    q.add("a", "a2");
    q.add("b", "b1");
    q.add("b", "b2");
    assertThat(drain(q)).containsExactly("a1", "b1");
    q.done("a");
    assertThat(drain(q)).containsExactly("a2");
    q.done("b");
    assertThat(drain(q)).containsExactly("b2");
  }

  @Test
  void aFinishedOperationFreesItsRegistrysShare() {
    RegistryQueues<String> q = new RegistryQueues<>(2, 1);
    q.add("a", "a1");
    q.add("a", "a2");
    assertThat(drain(q)).containsExactly("a1");
    assertThat(q.running("a")).isEqualTo(1);
    q.done("a");
    assertThat(drain(q)).containsExactly("a2");
  }

  @Test
  void clearingAnswersEverythingStillWaiting() {
    RegistryQueues<String> q = new RegistryQueues<>(1, 1);
    q.add("a", "a1");
    q.add("a", "a2");
    q.add("b", "b1");
    assertThat(drain(q)).containsExactly("a1");
    assertThat(q.clear()).containsExactlyInAnyOrder("a2", "b1");
    q.done("a");
    assertThat(drain(q)).isEmpty();
  }
}
