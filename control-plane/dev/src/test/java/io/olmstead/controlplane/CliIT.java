package io.olmstead.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.DriverManager;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class CliIT {
  private static Map<String, String> envFor(DatabaseSettings db) {
    return Map.of(
        "OLMSTEAD_DB_URL",
        "postgresql://" + db.host() + ":" + db.port() + "/" + db.database(),
        "OLMSTEAD_DB_USER",
        db.user());
  }

  @Test
  void migrateAppliesEveryMigrationAndIsIdempotent() throws Exception {
    DatabaseSettings db = TestDatabase.createEmpty(CliIT.class);
    MainTest.Outcome first = MainTest.run(envFor(db), "migrate");
    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(first.out()).contains("is up to date");
    MainTest.Outcome second = MainTest.run(envFor(db), "migrate");
    assertThat(second.out()).contains("(0 migrations applied now)");
    try (var connection = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        var rs =
            connection
                .createStatement()
                .executeQuery("SELECT count(*) FROM flyway_schema_history WHERE success")) {
      rs.next();
      assertThat(rs.getInt(1)).isPositive();
    }
  }

  @Test
  @Timeout(
      value = 120,
      threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // without the lock, dev would start and run
  void devRefusesADataDirectoryAnotherDevHoldsAndFreshLeavesItUntouched(@TempDir Path data)
      throws Exception {
    Path kept = Files.writeString(data.resolve("kept.txt"), "data of the running dev");
    try (FileChannel channel =
            FileChannel.open(
                data.resolve("olmstead-dev.lock"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock held = channel.lock()) {
      MainTest.Outcome outcome =
          MainTest.run(Map.of(), "dev", "--port", "0", "--data-dir", data.toString(), "--fresh");
      assertThat(outcome.exitCode()).isEqualTo(1);
      assertThat(outcome.err())
          .startsWith("olmstead: data directory " + data + " is in use by another 'dev'")
          .contains("--data-dir")
          .doesNotContain("\tat ");
      assertThat(outcome.err().lines().count()).isEqualTo(1);
      assertThat(kept).hasContent("data of the running dev");
      assertThat(held.isValid()).isTrue();
    }
  }

  @Test
  void portAlreadyInUseIsOneLineAndExitsOne() throws Exception {
    DatabaseSettings db = TestDatabase.create(CliIT.class);
    try (ServerSocket taken =
        new ServerSocket(0, 50, java.net.InetAddress.getByName("127.0.0.1"))) {
      MainTest.Outcome outcome =
          MainTest.run(
              envFor(db),
              "serve",
              "--bind",
              "127.0.0.1",
              "--port",
              String.valueOf(taken.getLocalPort()));
      assertThat(outcome.exitCode()).isEqualTo(1);
      assertThat(outcome.err())
          .contains("port " + taken.getLocalPort())
          .contains("already in use")
          .doesNotContain("\tat ");
      assertThat(outcome.err().lines().count()).isEqualTo(1);
    }
  }
}
