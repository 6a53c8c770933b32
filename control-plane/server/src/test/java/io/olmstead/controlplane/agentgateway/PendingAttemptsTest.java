package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.edgerisk.ReportedEdge.Attempt;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The queue of reported edge attempts stays bounded whatever an agent sends, and one agent cannot
 * fill it.
 */
class PendingAttemptsTest {
  private static PendingAttempts.Pending failure(String cluster, String to) {
    return new PendingAttempts.Pending(cluster, "sub", new Attempt("1.0.0", to, true, "boom"));
  }

  @Test
  void aLaterReportOfTheSameEdgeReplacesTheEarlierOne() {
    PendingAttempts q = new PendingAttempts(10, 5);
    assertThat(q.offer(failure("c1", "2.0.0"))).isTrue();
    PendingAttempts.Pending success =
        new PendingAttempts.Pending(
            "c1", "sub", new Attempt("1.0.0", "2.0.0", false, "running 2.0.0"));
    assertThat(q.offer(success)).isTrue();
    assertThat(q.take(10)).containsExactly(success);
    assertThat(q.size()).isZero();
  }

  @Test
  void anAgentFloodingFailuresTakesItsShareOnlyAndTheRestIsCountedAndDropped() {
    PendingAttempts q = new PendingAttempts(10, 3);
    for (int i = 0; i < 10_000; i++) {
      q.offer(failure("flood", "2.0." + i));
    }
    assertThat(q.size()).isEqualTo(3);
    assertThat(q.dropped()).isEqualTo(9_997);
    assertThat(q.offer(failure("quiet", "2.0.0"))).as("another cluster still gets in").isTrue();
    for (int c = 0; c < 20; c++) {
      q.offer(failure("c" + c, "2.0.0"));
    }
    assertThat(q.size()).as("the total bound").isEqualTo(10);
  }

  @Test
  void takingFreesTheClustersShareInOrder() {
    PendingAttempts q = new PendingAttempts(10, 2);
    q.offer(failure("c1", "2.0.0"));
    q.offer(failure("c1", "2.0.1"));
    assertThat(q.offer(failure("c1", "2.0.2"))).isFalse();
    List<PendingAttempts.Pending> first = q.take(1);
    assertThat(first).extracting(p -> p.attempt().to()).containsExactly("2.0.0");
    assertThat(q.offer(failure("c1", "2.0.2"))).isTrue();
    assertThat(q.take(5)).extracting(p -> p.attempt().to()).containsExactly("2.0.1", "2.0.2");
  }
}
