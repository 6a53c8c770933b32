package io.olmstead.controlplane.auditlog;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.db.Tx;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class AuditIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(AuditIT.class);
    api = new ApiClient(cp);
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void listsEveryMutationNewestFirstAcrossPages() {
    for (int i = 0; i < 5; i++) {
      api.createToken(ADMIN, "audited-" + i, "viewer", List.of());
    }
    List<JsonObject> entries = new ArrayList<>();
    String cursor = null;
    do {
      Response page =
          api.get("/api/v1/audit?limit=2" + (cursor == null ? "" : "&cursor=" + cursor), ADMIN);
      assertThat(page.status()).isEqualTo(200);
      page.items().forEach(item -> entries.add((JsonObject) item));
      cursor = page.json().getString("nextCursor");
    } while (cursor != null);
    List<String> resources =
        entries.stream()
            .filter(e -> e.getString("action").equals("token.create"))
            .map(e -> e.getString("resource"))
            .toList();
    assertThat(resources)
        .containsExactly(
            "tokens/audited-4",
            "tokens/audited-3",
            "tokens/audited-2",
            "tokens/audited-1",
            "tokens/audited-0");
    JsonObject newest = entries.get(0);
    assertThat(newest.getString("actor")).isEqualTo("token:bootstrap-admin");
    assertThat(newest.getString("outcome")).isEqualTo("success");
    assertThat(newest.getJsonObject("detail").getString("role")).isEqualTo("viewer");
    assertThat(newest.getString("at")).isNotBlank();
  }

  @Test
  void aFailedChangeRollsBackItsAuditEntryWithIt() throws Exception {
    Tx tx = new Tx(cp.controlPlane().pool());
    AuditEntry entry =
        new AuditEntry(
            "system", "test.change", "tests/rollback", AuditEntry.SUCCESS, null, "rid-1");
    Throwable failure =
        tx.audited(
                entry,
                conn ->
                    conn.query("INSERT INTO clusters (name) VALUES ('rolled-back')")
                        .execute()
                        .compose(rows -> conn.query("SELECT 1/0").execute()),
                null)
            .toCompletionStage()
            .toCompletableFuture()
            .handle((ok, e) -> e)
            .get(10, TimeUnit.SECONDS);
    assertThat(failure).isNotNull();
    assertThat(api.get("/api/v1/clusters/rolled-back", ADMIN).status()).isEqualTo(404);
    assertThat(api.get("/api/v1/audit?limit=500", ADMIN).body()).doesNotContain("tests/rollback");
  }

  @Test
  void onlyUnscopedAdminsReadTheAuditLog() {
    assertThat(
            api.get(
                    "/api/v1/audit",
                    api.createToken(ADMIN, "audit-operator", "operator", List.of()))
                .status())
        .isEqualTo(403);
    assertThat(
            api.get(
                    "/api/v1/audit",
                    api.createToken(ADMIN, "audit-team-admin", "admin", List.of("t1")))
                .status())
        .isEqualTo(403);
  }
}
