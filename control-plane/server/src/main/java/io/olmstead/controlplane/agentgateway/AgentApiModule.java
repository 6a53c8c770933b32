package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * Binds the spec's agent operations (enrollAgent, connectAgent, getAgentCatalog) to the gateway's
 * handlers. The gateway also mounts the same handlers on the root router ahead of the OpenAPI
 * router, because the WebSocket upgrade and the streamed catalog are not JSON exchanges; this
 * binding keeps the spec and the routes in step.
 */
public final class AgentApiModule implements ApiModule {
  private final AgentGateway gateway;

  public AgentApiModule(AgentGateway gateway) {
    this.gateway = gateway;
  }

  @Override
  public void register(RouterBuilder builder, ApiContext context) {
    ApiModule.route(builder, "enrollAgent").addHandler(gateway.enrollHandler());
    ApiModule.route(builder, "connectAgent").addHandler(gateway.connectHandler());
    ApiModule.route(builder, "getAgentCatalog").addHandler(gateway.catalogHandler());
    ApiModule.route(builder, "getAgentBundle").addHandler(gateway.bundleHandler());
    ApiModule.route(builder, "getAgentBundlePin").addHandler(gateway.bundlePinHandler());
  }
}
