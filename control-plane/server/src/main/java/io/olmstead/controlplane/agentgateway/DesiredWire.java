package io.olmstead.controlplane.agentgateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.olmstead.apispec.protocol.DesiredSubscription;
import io.olmstead.apispec.protocol.PreflightRequest;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.subscription.ComputedSubscription;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * The wire form of a cluster's computed desired state: each computed subscription as the protocol
 * record the agent receives, and the hash that names the state sent (with the preflight requests
 * asked alongside, when any).
 */
final class DesiredWire {
  private DesiredWire() {}

  static DesiredSubscription wire(ComputedSubscription d) {
    return new DesiredSubscription(
        d.name(),
        d.catalog(),
        d.catalogDigest(),
        d.packageName(),
        d.channel(),
        d.namespace(),
        d.targetNamespaces(),
        d.approval(),
        d.startingBundle(),
        d.maxVersion(),
        config(d.config()),
        d.crdRemoval(),
        d.generation(),
        d.blockedReason(),
        d.rollback(),
        d.crdUpgradeSafety());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> config(JsonObject config) {
    if (config == null || config.isEmpty()) {
      return Map.of();
    }
    try {
      // Vert.x JSON types are not plain Jackson beans: go through text once.
      return ProtocolCodec.mapper().readValue(config.encode(), Map.class);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("subscription config is not JSON", e);
    }
  }

  static String hash(String base, List<PreflightRequest> asked) {
    try {
      return CredentialStore.hex(
          Tokens.hash(base + ProtocolCodec.mapper().writeValueAsString(asked)));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("preflight requests cannot be encoded", e);
    }
  }

  static String hash(List<DesiredSubscription> desired) {
    try {
      return CredentialStore.hex(Tokens.hash(ProtocolCodec.mapper().writeValueAsString(desired)));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("desired state cannot be encoded", e);
    }
  }
}
