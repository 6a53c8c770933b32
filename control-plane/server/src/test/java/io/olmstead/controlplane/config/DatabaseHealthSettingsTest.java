package io.olmstead.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.pgclient.PgConnectOptions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DatabaseHealthSettingsTest {
  private final DatabaseSettings db =
      new DatabaseSettings("db.example", 5432, "olmstead", "olmstead", "secret");

  @Test
  void everyDatabaseConnectionSendsTcpKeepalivesSoADeadPeerOfAnIdleConnectionIsNoticed() {
    PgConnectOptions options = db.connectOptions();
    assertThat(options.isTcpKeepAlive()).isTrue();
    assertThat(options.getTcpKeepAliveIdleSeconds())
        .isEqualTo(DatabaseSettings.KEEPALIVE_IDLE_SECONDS);
    assertThat(
            options.getTcpKeepAliveIntervalSeconds() * options.getTcpKeepAliveCount()
                + options.getTcpKeepAliveIdleSeconds())
        .isLessThanOrEqualTo(60);
  }

  @Test
  void
      pooledConnectionsCarryTheStatementTimeoutTheReadTimeoutTheConnectTimeoutAndTheReplicasName() {
    DatabaseHealthSettings health =
        DatabaseHealthSettings.fromEnvironment(
            Map.of(
                DatabaseHealthSettings.STATEMENT_TIMEOUT,
                "20",
                DatabaseHealthSettings.READ_TIMEOUT,
                "25"));
    PgConnectOptions pooled = health.pooled(db.connectOptions(), "olmstead-r1");
    assertThat(pooled.getProperties())
        .containsEntry("statement_timeout", "20000")
        .containsEntry("application_name", "olmstead-r1");
    assertThat(pooled.getReadIdleTimeout()).isEqualTo(25);
    assertThat(pooled.getIdleTimeoutUnit()).isEqualTo(TimeUnit.SECONDS);
    assertThat(pooled.getConnectTimeout()).isEqualTo(10_000);
    assertThat(pooled.isTcpKeepAlive()).isTrue();
    assertThat(db.connectOptions().getProperties())
        .as("the dedicated sessions are left as they are")
        .doesNotContainKey("statement_timeout");
  }

  @Test
  void defaultsBoundEachWaitAndAReadTimeoutNotLongerThanTheStatementTimeoutIsRefusedNamingIt() {
    assertThat(DatabaseHealthSettings.fromEnvironment(Map.of()))
        .isEqualTo(DatabaseHealthSettings.DEFAULTS);
    assertThatThrownBy(
            () ->
                DatabaseHealthSettings.fromEnvironment(
                    Map.of(
                        DatabaseHealthSettings.STATEMENT_TIMEOUT,
                        "30",
                        DatabaseHealthSettings.READ_TIMEOUT,
                        "30")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(DatabaseHealthSettings.READ_TIMEOUT);
    assertThatThrownBy(
            () ->
                DatabaseHealthSettings.fromEnvironment(
                    Map.of(DatabaseHealthSettings.UNREACHABLE, "0")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(DatabaseHealthSettings.UNREACHABLE);
    assertThat(ControlPlaneConfig.ENVIRONMENT).containsAll(DatabaseHealthSettings.ENVIRONMENT);
  }

  @Test
  void aUrlNamingSeveralHostsIsRefusedPointingToOneReadWriteAddress() {
    assertThatThrownBy(
            () ->
                DatabaseSettings.parse(
                    "postgresql://pg-0:5432,pg-1:5432/olmstead?target_session_attrs=read-write",
                    "u",
                    "p"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(DatabaseSettings.URL_SETTING)
        .hasMessageContaining("several hosts")
        .hasMessageContaining("-rw");
    assertThat(DatabaseSettings.parse("postgresql://olmstead-rw:5432/olmstead", "u", "p").host())
        .isEqualTo("olmstead-rw");
    assertThat(
            DatabaseSettings.parse("postgresql://u:a,b@olmstead-rw/olmstead", null, null)
                .password())
        .as("a comma in the password is no second host")
        .isEqualTo("a,b");
  }
}
