package io.olmstead.controlplane.dev;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.olmstead.agent.config.ConfigException;
import io.olmstead.agent.pool.PoolConfig;
import io.olmstead.agent.pool.PoolReplica;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.db.Tx;
import io.olmstead.controlplane.hypershift.pool.PoolTokensModule;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dev mode's hosted agents: one replica of the real hosted agent pool ({@code olmstead-agent pool})
 * in the dev process, reading the kubeconfig secrets of the simulated management cluster. The
 * control plane assigns it every enrolled hosted cluster and hands over each one's credential, as
 * in a real deployment, and it serves them all on the pool's shared threads (a fixed set of
 * reconcile workers and one timer, one Vert.x for the channels, one for the guests), so the dev
 * process's threads do not grow with {@code --simulate-hypershift N}. Its pool token, named {@value
 * #TOKEN_NAME}, is created at start (audited, actor {@code system}); one a previous dev left live
 * is revoked in the same transaction (its secret was never stored anywhere).
 */
public final class DevHostedPool implements AutoCloseable {
  public static final String TOKEN_NAME = "dev";
  public static final String REPLICA = "dev-pool-0";

  /**
   * Reconcile threads of the dev replica (the pool's default is 8; a dev machine runs everything
   * else too).
   */
  public static final int RECONCILE_THREADS = 4;

  private static final Logger LOG = LoggerFactory.getLogger(DevHostedPool.class);
  private static final String REVOKE =
      "UPDATE pool_tokens SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL";
  private static final String INSERT =
      "INSERT INTO pool_tokens (name, token_hash, created_by) VALUES ($1, $2, 'system')";

  private final PoolReplica replica;

  private DevHostedPool(PoolReplica replica) {
    this.replica = replica;
  }

  /**
   * Creates the dev pool token in {@code pool}'s store and starts the replica against {@code
   * controlPlane}; call off any event loop (it waits for the token's transaction).
   */
  public static DevHostedPool start(Pool pool, URI controlPlane, KubernetesClient management) {
    String token = await(poolToken(new Tx(pool)));
    PoolConfig config;
    try {
      config =
          PoolConfig.fromMap(
              Map.of(
                  PoolConfig.CONTROL_PLANE_URL,
                  controlPlane.toString(),
                  PoolConfig.POOL_TOKEN,
                  token,
                  PoolConfig.REPLICA,
                  REPLICA,
                  PoolConfig.RECONCILE_THREADS,
                  Integer.toString(RECONCILE_THREADS),
                  // a rotated simulated kubeconfig is picked up within seconds, not the minute a
                  // deployment waits
                  PoolConfig.KUBECONFIG_CHECK_SECONDS,
                  "5"));
    } catch (ConfigException e) {
      throw new IllegalStateException("dev pool: " + e.getMessage(), e);
    }
    LOG.info(
        "dev: a hosted agent pool replica ({}) serves the enrolled hosted clusters in this process",
        REPLICA);
    return new DevHostedPool(PoolReplica.start(config, management));
  }

  private static Future<String> poolToken(Tx tx) {
    String secret = Tokens.generate(PoolTokensModule.TOKEN_PREFIX);
    AuditEntry entry =
        new AuditEntry(
            "system",
            "pool-token.create",
            "pool-tokens",
            AuditEntry.SUCCESS,
            new JsonObject().put("name", TOKEN_NAME).put("dev", true),
            null);
    return tx.audited(
            entry,
            conn ->
                conn.preparedQuery(REVOKE)
                    .execute(Tuple.of(TOKEN_NAME))
                    .compose(
                        revoked ->
                            conn.preparedQuery(INSERT)
                                .execute(Tuple.of(TOKEN_NAME, Buffer.buffer(Tokens.hash(secret))))),
            null)
        .map(rows -> secret);
  }

  /** The hosted clusters the dev replica runs an agent for now. */
  public Set<String> running() {
    return replica.served();
  }

  /** Whether the agent of {@code cluster} has its channel session up. */
  public boolean connected(String cluster) {
    return replica.connected(cluster);
  }

  private static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (Exception e) {
      throw new IllegalStateException("dev pool token not created: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    replica.close();
  }
}
