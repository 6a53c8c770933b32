package io.olmstead.controlplane.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.olmstead.controlplane.auth.TokenAuthenticator;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.db.Tx;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;

/**
 * What an {@link ApiModule} gets to build its stores and handlers: Vert.x, the pool, the
 * transaction/audit helper, the configuration (e.g. {@code maxBodyBytes} for streamed uploads), the
 * token authenticator and the meter registry.
 */
public record ApiContext(
    Vertx vertx,
    Pool pool,
    Tx tx,
    ControlPlaneConfig config,
    TokenAuthenticator authenticator,
    MeterRegistry registry) {}
