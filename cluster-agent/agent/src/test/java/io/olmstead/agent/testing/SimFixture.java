package io.olmstead.agent.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.reconcile.AgentReconciler;
import io.olmstead.agent.reconcile.CatalogProvider;
import io.olmstead.agent.reconcile.ReconcilerOptions;
import io.olmstead.agent.reconcile.SubscriptionToReconcile;
import io.olmstead.agent.sim.SimulatedCluster;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;

/**
 * One simulated cluster (mock API server + kubelet stand-in + real agent) with fast timings, for
 * ITs.
 */
public final class SimFixture implements AutoCloseable {
  public final RecordingSink sink = new RecordingSink();
  public final SimulatedCluster cluster;
  public final ResourceOperator resources;
  private final AtomicLong generation = new AtomicLong();

  public SimFixture(boolean failDeployments) throws ResourceException {
    this(failDeployments, Duration.ofSeconds(1));
  }

  public SimFixture(boolean failDeployments, Duration resync) throws ResourceException {
    // Long enough that every phase (CRDs not yet Established, Deployments not yet Available) is
    // observable.
    this(failDeployments, resync, Duration.ofMillis(400));
  }

  public SimFixture(boolean failDeployments, Duration resync, Duration rolloutDelay)
      throws ResourceException {
    this(SharedCatalogs.provider(), failDeployments, resync, rolloutDelay);
  }

  /**
   * A cluster whose agent reads {@code catalogs} (e.g. {@link SharedCatalogs#etcdWithCrd}) instead
   * of the bundled one.
   */
  public SimFixture(CatalogProvider catalogs) throws ResourceException {
    this(catalogs, false, Duration.ofSeconds(1), Duration.ofMillis(400));
  }

  public SimFixture(
      CatalogProvider catalogs, boolean failDeployments, Duration resync, Duration rolloutDelay)
      throws ResourceException {
    cluster =
        SimulatedCluster.start(
            1,
            failDeployments,
            catalogs,
            sink,
            rolloutDelay,
            new ReconcilerOptions(2, resync, true));
    resources = new ResourceOperator(cluster.client(), new ResourceKinds());
  }

  /**
   * Creates these namespaces (target namespaces must exist, as on an API server, before an install
   * watches them).
   */
  public void namespaces(String... names) {
    try {
      for (String name : names) {
        resources.apply(TestCrds.namespace(name));
      }
    } catch (ResourceException e) {
      throw new IllegalStateException(e);
    }
  }

  public void desire(SubscriptionToReconcile... subs) {
    cluster.agent().setDesired(generation.incrementAndGet(), List.of(subs));
  }

  public static SubscriptionToReconcile etcd(String maxVersion) {
    return SubscriptionToReconcile.of(
        "etcd", SharedCatalogs.CATALOG, "etcd", "singlenamespace-alpha", "etcd-ns", maxVersion);
  }

  /**
   * Returns once {@code n} passes over {@code namespace} that began after this call have ended:
   * what a test awaits before asserting that they changed nothing.
   */
  public void awaitPasses(String namespace, int n) {
    awaitPasses(cluster.agent(), namespace, n);
  }

  /** As {@link #awaitPasses(String, int)}, for any reconciler. */
  public static void awaitPasses(AgentReconciler agent, String namespace, int n) {
    long started = agent.passes(namespace).started();
    Awaitility.await(n + " passes over " + namespace)
        .atMost(Duration.ofSeconds(30))
        .until(() -> agent.passes(namespace).finished() >= started + n);
  }

  public Optional<JsonNode> get(String apiVersion, String kind, String namespace, String name) {
    try {
      return resources.get(apiVersion, kind, namespace, name);
    } catch (ResourceException e) {
      throw new IllegalStateException(e);
    }
  }

  public List<JsonNode> list(String apiVersion, String kind) {
    try {
      return resources.list(apiVersion, kind, java.util.Map.of());
    } catch (ResourceException e) {
      throw new IllegalStateException(e);
    }
  }

  public String label(JsonNode object, String key) {
    return object.path("metadata").path("labels").path(key).asText(null);
  }

  @Override
  public void close() {
    cluster.close();
  }
}
