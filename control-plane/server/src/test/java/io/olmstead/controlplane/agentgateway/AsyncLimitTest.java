package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AsyncLimitTest {
  private final List<Promise<String>> started = new ArrayList<>();

  private Future<String> task() {
    Promise<String> promise = Promise.promise();
    started.add(promise);
    return promise.future();
  }

  @Test
  void runsAtMostMaxAtOnceAndStartsTheWaitingInArrivalOrder() {
    AsyncLimit limit = new AsyncLimit(2, 10);
    Future<String> a = limit.run(this::task);
    Future<String> b = limit.run(this::task);
    Future<String> c = limit.run(this::task);
    Future<String> d = limit.run(this::task);
    assertThat(started).hasSize(2);
    assertThat(limit.waiting()).isEqualTo(2);

    started.get(1).complete("b");
    assertThat(b.result()).isEqualTo("b");
    assertThat(started).hasSize(3);
    started.get(2).complete("c");
    assertThat(c.result()).isEqualTo("c");
    assertThat(started).hasSize(4);
    assertThat(a.isComplete()).isFalse();
    assertThat(d.isComplete()).isFalse();
    assertThat(limit.waiting()).isZero();
  }

  @Test
  void aFailedOrThrowingTaskGivesItsSlotBack() {
    AsyncLimit limit = new AsyncLimit(1, 10);
    Future<String> thrown =
        limit.run(
            () -> {
              throw new IllegalStateException("boom");
            });
    assertThat(thrown.failed()).isTrue();
    Future<String> failing = limit.run(this::task);
    Future<String> next = limit.run(this::task);
    assertThat(started).hasSize(1);
    started.get(0).fail("refused");
    assertThat(failing.cause()).hasMessage("refused");
    assertThat(started).hasSize(2);
    started.get(1).complete("ok");
    assertThat(next.result()).isEqualTo("ok");
  }

  @Test
  void aTaskBeyondTheWaitingBoundIsRefusedAtOnceWithoutRunningAndTheNextOneWaitsAgain() {
    AsyncLimit limit = new AsyncLimit(1, 2);
    limit.run(this::task);
    limit.run(this::task);
    limit.run(this::task);
    Future<String> refused = limit.run(this::task);
    assertThat(refused.failed()).isTrue();
    assertThat(refused.cause())
        .isInstanceOf(AsyncLimit.Full.class)
        .hasMessage("2 tasks are waiting already");
    assertThat(started).hasSize(1);
    assertThat(limit.waiting()).isEqualTo(2);

    started.get(0).complete("a");
    assertThat(started).hasSize(2);
    Future<String> queued = limit.run(this::task);
    assertThat(queued.isComplete()).isFalse();
    assertThat(limit.waiting()).isEqualTo(2);
  }
}
