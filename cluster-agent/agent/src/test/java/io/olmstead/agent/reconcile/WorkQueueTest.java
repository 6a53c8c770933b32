package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkQueueTest {
  private final WorkQueue queue = new WorkQueue("test");

  @AfterEach
  void close() {
    queue.close();
  }

  @Test
  void aKeyAddedManyTimesIsHandedOutOnce() throws Exception {
    queue.add("a");
    queue.add("a");
    queue.add("b");
    assertThat(queue.take(Duration.ZERO)).contains("a");
    assertThat(queue.take(Duration.ZERO)).contains("b");
    assertThat(queue.take(Duration.ZERO)).isEmpty();
  }

  @Test
  void aKeyBeingProcessedIsNotHandedToASecondWorkerButIsRequeuedWhenDone() throws Exception {
    queue.add("ns");
    Optional<String> first = queue.take(Duration.ZERO);
    queue.add("ns"); // an event arrives during the pass
    assertThat(queue.take(Duration.ZERO)).isEmpty();
    queue.done(first.orElseThrow());
    assertThat(queue.take(Duration.ZERO)).contains("ns");
  }

  @Test
  void aKeyNotTouchedDuringProcessingIsNotRequeued() throws Exception {
    queue.add("ns");
    queue.done(queue.take(Duration.ZERO).orElseThrow());
    assertThat(queue.take(Duration.ZERO)).isEmpty();
    assertThat(queue.depth()).isZero();
  }

  @Test
  void addAfterQueuesTheKeyLater() throws Exception {
    queue.addAfter("later", Duration.ofMillis(50));
    assertThat(queue.take(Duration.ZERO)).isEmpty();
    assertThat(queue.take(Duration.ofSeconds(5))).contains("later");
  }

  @Test
  void closingReleasesWaitingWorkers() throws Exception {
    queue.close();
    assertThat(queue.take(Duration.ofSeconds(5))).isEmpty();
  }
}
