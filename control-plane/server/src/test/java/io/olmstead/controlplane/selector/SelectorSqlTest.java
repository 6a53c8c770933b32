package io.olmstead.controlplane.selector;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class SelectorSqlTest {

  @Test
  void keysAndValuesTravelOnlyAsParameters() {
    SelectorSql sql =
        SelectorSql.of(
            LabelSelector.parse("env=prod,region in (eu,us),!canary,tier!=db"), "labels", 3);
    assertThat(sql.sql())
        .doesNotContain("prod", "region", "canary", "tier", "db", "eu")
        .contains("$3", "$4", "$5", "$6", "$7", "$8")
        .doesNotContain("$9");
    assertThat(sql.params())
        .containsExactly(
            new JsonObject().put("env", "prod"),
            "region",
            new String[] {"eu", "us"},
            "canary",
            "tier",
            "db");
  }

  @Test
  void anEmptySelectorIsTrue() {
    SelectorSql sql = SelectorSql.of(LabelSelector.everything(), "labels", 1);
    assertThat(sql.sql()).isEqualTo("TRUE");
    assertThat(sql.params()).isEmpty();
  }

  @Test
  void hostileKeysCannotEscapeTheirParameter() {
    SelectorSql sql = SelectorSql.of(LabelSelector.parse("a.b/c-d_e.f"), "labels", 1);
    assertThat(sql.sql()).isEqualTo("labels ? $1::text");
    assertThat(sql.params()).containsExactly("a.b/c-d_e.f");
  }
}
