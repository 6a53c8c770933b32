package io.olmstead.controlplane.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Prometheus' answers as the analysis reads them. */
class PromResponseTest {
  @Test
  void readsAnInstantVector() {
    String body =
        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":"
            + "{\"cluster\":\"a\"},\"value\":[1700000000.1,\"0.25\"]},{\"metric\":{},\"value\":[1700000000.1,\"NaN\"]}]}}";
    QueryOutcome.Samples s = (QueryOutcome.Samples) PromResponse.parse(200, body);
    assertThat(s.values()).hasSize(2);
    assertThat(s.values().get(0)).isEqualTo(0.25);
    assertThat(s.values().get(1)).isNaN();
  }

  @Test
  void readsAScalarAndAnEmptyVector() {
    assertThat(
            PromResponse.parse(
                200,
                "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":"
                    + "[1700000000,\"1\"]}}"))
        .isEqualTo(new QueryOutcome.Samples(List.of(1.0)));
    assertThat(
            PromResponse.parse(
                200, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}"))
        .isEqualTo(new QueryOutcome.Samples(List.of()));
  }

  @Test
  void aParseErrorIsARefusalOtherErrorsAreUnavailable() {
    assertThat(
            PromResponse.parse(
                400,
                "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"1:5: parse "
                    + "error: unexpected\"}"))
        .isEqualTo(new QueryOutcome.Refused("1:5: parse error: unexpected"));
    assertThat(
            PromResponse.parse(
                503,
                "{\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"query timed "
                    + "out\"}"))
        .isInstanceOf(QueryOutcome.Unavailable.class);
  }

  @Test
  void anErrorTextIsKeptToItsLimitBeforeItReachesHistoryEventsAndWebhooks() {
    String huge = "x".repeat(100_000);
    QueryOutcome refused =
        PromResponse.parse(
            400, "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"" + huge + "\"}");
    assertThat(((QueryOutcome.Refused) refused).message())
        .hasSize(PromResponse.MAX_ERROR_CHARS + 3)
        .endsWith("...");
    QueryOutcome down =
        PromResponse.parse(
            503, "{\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"" + huge + "\"}");
    assertThat(((QueryOutcome.Unavailable) down).reason().length())
        .isLessThan(PromResponse.MAX_ERROR_CHARS + 20);
  }

  @Test
  void garbageAndOtherShapesAreUnavailable() {
    assertThat(PromResponse.parse(200, "not json")).isInstanceOf(QueryOutcome.Unavailable.class);
    assertThat(PromResponse.parse(200, "[1,2]")).isInstanceOf(QueryOutcome.Unavailable.class);
    assertThat(PromResponse.parse(502, "<html>bad gateway</html>"))
        .isInstanceOf(QueryOutcome.Unavailable.class);
    assertThat(
            PromResponse.parse(
                200, "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}"))
        .isInstanceOf(QueryOutcome.Unavailable.class);
    assertThat(
            PromResponse.parse(
                200,
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
                    + "[{\"value\":[1,\"abc\"]}]}}"))
        .isInstanceOf(QueryOutcome.Unavailable.class);
    assertThat(
            PromResponse.parse(
                200,
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
                    + "[{\"value\":[1]}]}}"))
        .isInstanceOf(QueryOutcome.Unavailable.class);
  }
}
