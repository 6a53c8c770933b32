package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.sim.DiscoveringCrudDispatcher;
import io.olmstead.agent.sim.KubeletStandIn;
import io.olmstead.agent.testing.RecordingSink;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A mock API server (with discovery) and a {@link NamespacePass} the test drives itself, one pass
 * at a time, with the simulated kubelet ticked between passes: no reconcile loop, no informers, no
 * timing.
 */
final class PassDriver implements AutoCloseable {
  final RecordingSink sink = new RecordingSink();
  final ResourceOperator resources;
  private final KubernetesMockServer server;
  private final KubernetesClient client;
  private final KubeletStandIn kubelet;
  private final NamespacePass pass;

  /** {@code catalogs} is asked on every pass, so a test can change the catalog between passes. */
  PassDriver(Supplier<CatalogProvider> catalogs) {
    Logger.getLogger("io.fabric8.mockwebserver")
        .setLevel(Level.WARNING); // it logs every request at INFO
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new DiscoveringCrudDispatcher(),
            false);
    server.init();
    client = server.createClient();
    resources = new ResourceOperator(client, new ResourceKinds());
    kubelet =
        new KubeletStandIn(
            "pass-driver", new ResourceOperator(client, new ResourceKinds()), Duration.ZERO, false);
    CatalogProvider current =
        new CatalogProvider() {
          @Override
          public Optional<Catalog> catalog(String name, String digest) {
            return catalogs.get().catalog(name, digest);
          }

          @Override
          public BundleContent content(Bundle bundle) {
            return catalogs.get().content(bundle);
          }
        };
    pass = new NamespacePass(resources, current, new StatusBoard(sink), name -> null, () -> {});
  }

  /** One pass over {@code namespace}, then one round of the simulated kubelet. */
  PassOutcome pass(String namespace, SubscriptionToReconcile... subs) throws ResourceException {
    PassOutcome outcome = pass.run(namespace, List.of(subs));
    kubelet.tick();
    return outcome;
  }

  /**
   * Passes until {@code subscription} reports {@code phase} (at most 20), then returns its last
   * status.
   */
  SubscriptionStatus passUntil(String phase, String namespace, SubscriptionToReconcile sub)
      throws ResourceException {
    for (int i = 0; i < 20; i++) {
      pass(namespace, sub);
      Optional<SubscriptionStatus> latest = sink.latest(sub.name());
      if (latest.isPresent() && phase.equals(latest.get().phase())) {
        return latest.get();
      }
    }
    throw new AssertionError(
        sub.name() + " never reached " + phase + ": " + sink.history(sub.name()));
  }

  Optional<JsonNode> get(String apiVersion, String kind, String namespace, String name)
      throws ResourceException {
    return resources.get(apiVersion, kind, namespace, name);
  }

  List<JsonNode> list(String apiVersion, String kind) throws ResourceException {
    return resources.list(apiVersion, kind, Map.of());
  }

  /** Creates or replaces an object as another writer would (a user, another controller). */
  void write(JsonNode object) throws ResourceException {
    resources.apply(object);
  }

  @Override
  public void close() {
    kubelet.close();
    client.close();
    server.destroy();
  }
}
