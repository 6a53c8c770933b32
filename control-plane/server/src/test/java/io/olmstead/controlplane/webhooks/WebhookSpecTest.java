package io.olmstead.controlplane.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Webhook validation, private-address refusal and the signature, as pure functions. */
class WebhookSpecTest {
  private static JsonObject body(String url) {
    return new JsonObject()
        .put("url", url)
        .put("events", new JsonArray().add("io.olmstead.rollout.*"))
        .put("secret", "0123456789abcdef");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.0.0.1:8080/",
        "http://localhost/",
        "http://169.254.169.254/latest/",
        "http://10.1.2.3/",
        "http://192.168.0.1/",
        "http://[::1]/",
        "http://[fd00::1]/",
        "http://0.0.0.0/",
        "http://100.64.0.1/",
        "http://api.localhost/",
        // IPv6 forms that carry a loopback or metadata IPv4 address, a zone id, broadcast, a
        // single-number IPv4
        "http://[::127.0.0.1]:18099/",
        "http://[::169.254.169.254]/",
        "http://[::ffff:0:127.0.0.1]/",
        "http://[64:ff9b::7f00:1]/",
        "http://[2002:7f00:1::]/",
        "http://[fe80::1%eth0]/",
        "http://255.255.255.255/",
        "http://2130706433/",
        "http://0177.0.0.1/"
      })
  void receiversInsideTheNetworkAreRefusedUnlessAllowed(String url) {
    assertThat(WebhookSpec.problems(body(url), false))
        .singleElement()
        .satisfies(p -> assertThat(p.field()).isEqualTo("/url"));
    assertThat(WebhookSpec.problems(body(url), true)).isEmpty();
  }

  @Test
  void publicReceiversAndPatternsPass() {
    assertThat(WebhookSpec.problems(body("https://hooks.example.com/olmstead?x=1"), false))
        .isEmpty();
    assertThat(WebhookSpec.problems(body("http://203.0.113.5/"), false)).isEmpty();
    for (String ok :
        new String[] {"*", "io.olmstead.rollout.*", "io.olmstead.rollout.cluster.failed"}) {
      assertThat(WebhookSpec.EVENT.matcher(ok).matches()).as(ok).isTrue();
    }
    for (String bad : new String[] {"io.*.x", "io..x", "IO.x", "io.x*", ""}) {
      assertThat(WebhookSpec.EVENT.matcher(bad).matches()).as(bad).isFalse();
    }
  }

  @Test
  void theSignatureIsTheHexHmacSha256OfTheBody() {
    // RFC 4231 test case 2
    assertThat(
            Signatures.sign(
                "Jefe", "what do ya want for nothing?".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  }

  @Test
  void backoffDoublesAndIsCapped() {
    assertThat(Deliveries.backoffSeconds(1)).isEqualTo(2);
    assertThat(Deliveries.backoffSeconds(3)).isEqualTo(8);
    assertThat(Deliveries.backoffSeconds(30)).isEqualTo(600);
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://127.1/", "http://0x7f.1/"})
  void shortenedIpv4FormsHaveNoHostForAUriAndAreRefusedEvenWhenPrivateReceiversAreAllowed(
      String url) {
    assertThat(WebhookSpec.problems(body(url), true))
        .singleElement()
        .satisfies(p -> assertThat(p.field()).isEqualTo("/url"));
  }
}
