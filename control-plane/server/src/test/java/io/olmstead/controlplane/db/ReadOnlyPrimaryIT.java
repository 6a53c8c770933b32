package io.olmstead.controlplane.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A failover as a replica's pool sees it: its sessions end, and the address it dials leads for a
 * while to a server that answers read-only (a demoted primary, a standby), then to the new primary.
 * The pool must not keep the read-only sessions it opened meanwhile (each write on them fails with
 * SQLSTATE 25006): they are ended, and every write succeeds once the address leads to a writable
 * server again. Read-only is simulated on one real server with {@code
 * default_transaction_read_only}, which a session takes when it starts.
 */
class ReadOnlyPrimaryIT {
  private static TestControlPlane cp;
  private static DatabaseSettings db;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    db = TestDatabase.create(ReadOnlyPrimaryIT.class);
    cp = TestControlPlane.start(db, Map.of());
    api = new ApiClient(cp);
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void sessionsOpenedOnAReadOnlyServerAreEndedSoWritesSucceedOnceTheAddressLeadsToThePrimary() {
    assertThat(write()).isEqualTo(201);

    TestDatabase.execute(
        db, "ALTER DATABASE " + db.database() + " SET default_transaction_read_only = on");
    TestDatabase.execute(
        db,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
            + db.database()
            + "' AND application_name LIKE 'olmstead-%'");
    // the pool's sessions now start read-only: writes fail while the address leads to the read-only
    // server
    await().atMost(Duration.ofSeconds(20)).until(() -> write() != 201);

    // from another database: a session on this one starts read-only too
    TestDatabase.execute(
        new DatabaseSettings(db.host(), db.port(), "postgres", db.user(), db.password()),
        "ALTER DATABASE " + db.database() + " RESET default_transaction_read_only");
    await().atMost(Duration.ofSeconds(20)).until(() -> write() == 201);
    for (int i = 0; i < 40; i++) {
      assertThat(write())
          .as("write " + i + ": no read-only session left in the pool")
          .isEqualTo(201);
    }
  }

  private static int write() {
    return api.json(
            "POST",
            "/api/v1/enrollment-tokens",
            TestControlPlane.ADMIN_TOKEN,
            new JsonObject().put("ttlSeconds", 600).put("maxUses", 1))
        .status();
  }
}
