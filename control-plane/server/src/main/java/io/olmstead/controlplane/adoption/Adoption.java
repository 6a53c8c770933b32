package io.olmstead.controlplane.adoption;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import java.time.Instant;

/**
 * Adoption over time as the control plane wires it: the sampler (on the leader replica) and its
 * REST module.
 */
public final class Adoption {
  private final AdoptionSampler sampler;
  private final AdoptionModule module = new AdoptionModule();

  public Adoption(Vertx vertx, Pool pool, PgConnectOptions connectOptions) {
    this.sampler = new AdoptionSampler(vertx, pool, connectOptions, Instant::now);
  }

  public AdoptionModule module() {
    return module;
  }

  public AdoptionSampler sampler() {
    return sampler;
  }

  public Future<Void> start() {
    sampler.start();
    return Future.succeededFuture();
  }

  public Future<Void> close() {
    return sampler.close();
  }
}
