package io.olmstead.controlplane.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bound's lateness is read on a clock the test moves: a timer that finds the clock far past its
 * due time stands for an event loop that was behind, one that finds it on time for a loop that kept
 * time. The timers themselves are real: a 50 ms bound, and an answer that comes at 80 ms, after the
 * first firing and before the one a restarted bound makes (at 100 ms or later).
 */
class LoopBoundTest {
  private static final long BOUND_MILLIS = 50;

  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() {
    vertx.close();
  }

  @Test
  void aBoundWhoseTimerFiresLateStartsAgainAndTakesTheAnswerThatWasWaiting() throws Exception {
    AtomicInteger reads = new AtomicInteger();
    // armed at 0; every later read 10 s on: the loop was 10 s behind when the timer fired
    Future<String> bounded =
        LoopBound.within(
            vertx,
            answerAfter(80),
            BOUND_MILLIS,
            TimeoutException::new,
            () -> reads.incrementAndGet() == 1 ? 0 : TimeUnit.SECONDS.toNanos(10));

    assertThat(get(bounded)).isEqualTo("answer");
    assertThat(reads.get()).as("armed, fired late, armed again").isEqualTo(3);
  }

  @Test
  void aBoundWhoseTimerFiresOnTimeFails() {
    AtomicLong clock = new AtomicLong();
    Future<String> bounded =
        LoopBound.within(vertx, answerAfter(80), BOUND_MILLIS, TimeoutException::new, clock::get);

    assertThat(outcome(bounded)).isInstanceOf(TimeoutException.class);
  }

  @Test
  void aLoopThatStaysLateFailsTheBoundAfterTheLastRestart() {
    AtomicInteger reads = new AtomicInteger();
    // every read of the clock is a minute after the last: every firing is late
    Future<String> bounded =
        LoopBound.within(
            vertx,
            Promise.<String>promise().future(),
            BOUND_MILLIS,
            TimeoutException::new,
            () -> TimeUnit.MINUTES.toNanos(reads.incrementAndGet()));

    assertThat(outcome(bounded)).isInstanceOf(TimeoutException.class);
    assertThat(reads.get())
        .as("clock reads: one when armed and one when fired, for the first bound and each restart")
        .isEqualTo(2 * (LoopBound.MAX_LATE + 1));
  }

  private Future<String> answerAfter(long millis) {
    Promise<String> answer = Promise.promise();
    vertx.setTimer(millis, id -> answer.complete("answer"));
    return answer.future();
  }

  private static String get(Future<String> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static Throwable outcome(Future<String> future) {
    try {
      get(future);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      return e;
    }
  }
}
