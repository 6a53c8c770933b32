package io.olmstead.controlplane.signals;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class SignalEventsTest {
  private static JsonObject signals(String latest, JsonArray deprecations, String... stuck) {
    return new JsonObject()
        .put(
            "upgradesAvailable",
            latest == null ? null : new JsonObject().put("latest", latest).put("clusters", 2))
        .put("deprecations", deprecations)
        .put(
            "stuckClusters",
            new JsonObject()
                .put("count", stuck.length)
                .put("after", "PT30M")
                .put("clusters", new JsonArray(List.of((Object[]) stuck))));
  }

  private static JsonArray deprecated(String... bundles) {
    JsonArray out = new JsonArray();
    for (String b : bundles) {
      out.add(
          new JsonObject()
              .put("scope", "bundle")
              .put("name", b)
              .put("message", "m")
              .put("clusters", 1));
    }
    return out;
  }

  private static List<String> types(JsonObject before, JsonObject after) {
    return SignalEvents.changes(before, after).stream().map(SignalEvents.Event::type).toList();
  }

  @Test
  void eachSignalRaisesItsEventWhenItAppearsAndNotOnTheNextEvaluation() {
    JsonObject quiet = signals(null, new JsonArray());
    JsonObject raised = signals("2.0.4", deprecated("op.v2.0.0"), "eu-1");
    assertThat(types(null, quiet)).isEmpty();
    assertThat(types(quiet, raised))
        .containsExactly(
            SignalEvents.UPGRADES_AVAILABLE, SignalEvents.DEPRECATED, SignalEvents.STUCK);
    assertThat(types(null, raised)).hasSize(3);
    assertThat(types(raised, raised.copy())).as("unchanged signals: no event").isEmpty();
    // the count of clusters below the newest version changing is not a new upgrade
    JsonObject moreClusters = raised.copy();
    moreClusters.getJsonObject("upgradesAvailable").put("clusters", 7);
    assertThat(types(raised, moreClusters)).isEmpty();
  }

  @Test
  void onlyWhatIsNewIsSent() {
    JsonObject before = signals("2.0.4", deprecated("op.v2.0.0"), "eu-1");
    JsonObject after = signals("2.0.6", deprecated("op.v2.0.0", "op.v2.0.2"), "eu-1", "us-1");
    List<SignalEvents.Event> events = SignalEvents.changes(before, after);
    assertThat(events)
        .extracting(SignalEvents.Event::type)
        .containsExactly(
            SignalEvents.UPGRADES_AVAILABLE, SignalEvents.DEPRECATED, SignalEvents.STUCK);
    assertThat(events.get(0).data().getString("latest")).isEqualTo("2.0.6");
    assertThat(events.get(1).data().getJsonArray("deprecations"))
        .extracting(d -> ((JsonObject) d).getString("name"))
        .containsExactly("op.v2.0.2");
    assertThat(events.get(2).data().getJsonArray("clusters").getList()).containsExactly("us-1");
    // a cluster no longer stuck, fewer deprecations, no upgrade: nothing to announce
    assertThat(types(after, signals(null, deprecated("op.v2.0.0"), "eu-1"))).isEmpty();
  }
}
