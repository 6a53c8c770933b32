package io.olmstead.controlplane.dev;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.olmstead.controlplane.dev.SimulatedHostedStatus.Step;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIMULATION: a small HyperShift operator on the simulated management cluster. Every {@code period}
 * it lists the HostedClusters and does the {@link SimulatedHostedStatus#next next step} of each:
 * adopt (finalizer, clusterID), provision (control plane namespace, a {@link SimulatedGuest}, the
 * {@code <name>-admin-kubeconfig} and {@code service-network-admin-kubeconfig} secrets), start a
 * version, complete it after {@code versionDelay} ({@code Available=True}, reason {@code
 * AsExpected}), and on deletion tear the guest down and drop the finalizer. One thread of its own;
 * a failed write (a conflict with kubectl, say) is tried again on the next round.
 */
public final class SimulatedHypershiftOperator implements AutoCloseable {
  public static final String KUBECONFIG_KEY = "kubeconfig";
  public static final String SERVICE_NETWORK_SECRET = "service-network-admin-kubeconfig";
  private static final Logger LOG = LoggerFactory.getLogger(SimulatedHypershiftOperator.class);

  private final KubernetesClient client;
  private final Duration versionDelay;
  private final Duration rolloutDelay;
  private final Map<String, SimulatedGuest> guests = new ConcurrentHashMap<>();
  private final SimulationLoop loop = new SimulationLoop("sim-hypershift-operator");

  public SimulatedHypershiftOperator(
      KubernetesClient client, Duration versionDelay, Duration rolloutDelay) {
    this.client = client;
    this.versionDelay = versionDelay;
    this.rolloutDelay = rolloutDelay;
  }

  public SimulatedHypershiftOperator start(Duration period) {
    loop.every(period, this::round);
    return this;
  }

  /** How many simulated guests run now. */
  public int guests() {
    return guests.size();
  }

  /** One pass over every HostedCluster. */
  void round() {
    try {
      Set<String> seen = new HashSet<>();
      for (GenericKubernetesResource object :
          client
              .genericKubernetesResources(SimulatedManagementCluster.HOSTED_CLUSTERS)
              .inAnyNamespace()
              .list()
              .getItems()) {
        String key = key(object);
        seen.add(key);
        try {
          act(key, object);
        } catch (KubernetesClientException | IllegalStateException e) {
          LOG.debug(
              "simulated HyperShift operator: {} not done this round: {}", key, e.getMessage());
        }
      }
      // a HostedCluster that went away without its finalizer being honoured (force-deleted) leaves
      // no guest behind
      for (String key : Set.copyOf(guests.keySet())) {
        if (!seen.contains(key)) {
          guests.remove(key).close();
        }
      }
    } catch (RuntimeException e) {
      LOG.debug(
          "simulated HyperShift operator round failed (next round retries): {}", e.toString());
    }
  }

  @SuppressWarnings("unchecked")
  private void act(String key, GenericKubernetesResource object) {
    Map<String, Object> hc = client.getKubernetesSerialization().convertValue(object, Map.class);
    String namespace = object.getMetadata().getNamespace();
    String name = object.getMetadata().getName();
    Instant now = Instant.now();
    Step step = SimulatedHostedStatus.next(hc, guests.containsKey(key), now, versionDelay);
    switch (step) {
      case NONE -> {}
      case ADOPT ->
          write(SimulatedHostedStatus.adopted(hc, () -> UUID.randomUUID().toString()), false);
      case PROVISION -> provision(key, namespace, name);
      case INVALID_IMAGE -> write(SimulatedHostedStatus.invalidImage(hc, now), true);
      case START_VERSION -> {
        SimulatedGuest guest = guests.get(key);
        write(
            SimulatedHostedStatus.started(hc, guest.url().getHost(), guest.url().getPort(), now),
            true);
      }
      case COMPLETE_VERSION -> {
        write(SimulatedHostedStatus.completed(hc, now), true);
        LOG.info(
            "SIMULATED HostedCluster {}/{}: version {} completed, Available=True",
            namespace,
            name,
            ReleaseVersion.of(object.get("spec", "release", "image")).orElse("?"));
      }
      case TEAR_DOWN -> tearDown(key, namespace, name, hc);
    }
  }

  private void provision(String key, String namespace, String name) {
    String controlPlane = namespace + "-" + name.replace('.', '-');
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(controlPlane)
                .addToLabels("hypershift.openshift.io/hosted-control-plane", "true")
                .endMetadata()
                .build())
        .createOr(NonDeletingOperation::update);
    SimulatedGuest guest = SimulatedGuest.start(namespace + "/" + name, rolloutDelay);
    try {
      client
          .secrets()
          .resource(secret(namespace, name + "-admin-kubeconfig", guest.kubeconfig(name)))
          .createOr(NonDeletingOperation::update);
      // HyperShift's points at https://kube-apiserver:6443 inside the namespace; the simulated one
      // at the mock
      client
          .secrets()
          .resource(secret(controlPlane, SERVICE_NETWORK_SECRET, guest.kubeconfig(name)))
          .createOr(NonDeletingOperation::update);
    } catch (RuntimeException e) {
      guest.close();
      throw e;
    }
    guests.put(key, guest);
    LOG.info(
        "SIMULATED HostedCluster {}/{}: control plane namespace {} and guest API {} up",
        namespace,
        name,
        controlPlane,
        guest.url());
  }

  private void tearDown(String key, String namespace, String name, Map<String, Object> hc) {
    SimulatedGuest guest = guests.remove(key);
    if (guest != null) {
      guest.close();
    }
    String controlPlane = namespace + "-" + name.replace('.', '-');
    client.secrets().inNamespace(namespace).withName(name + "-admin-kubeconfig").delete();
    client.secrets().inNamespace(controlPlane).withName(SERVICE_NETWORK_SECRET).delete();
    client.namespaces().withName(controlPlane).delete();
    write(SimulatedHostedStatus.released(hc), false);
    LOG.info("SIMULATED HostedCluster {}/{}: guest torn down, finalizer removed", namespace, name);
  }

  private void write(Map<String, Object> hc, boolean status) {
    GenericKubernetesResource resource =
        client.getKubernetesSerialization().convertValue(hc, GenericKubernetesResource.class);
    var op =
        client
            .genericKubernetesResources(SimulatedManagementCluster.HOSTED_CLUSTERS)
            .inNamespace(resource.getMetadata().getNamespace())
            .resource(resource);
    if (status) {
      op.updateStatus();
    } else {
      op.update();
    }
  }

  private static Secret secret(String namespace, String name, String kubeconfig) {
    return new SecretBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .endMetadata()
        .addToData(
            KUBECONFIG_KEY,
            Base64.getEncoder().encodeToString(kubeconfig.getBytes(StandardCharsets.UTF_8)))
        .build();
  }

  private static String key(GenericKubernetesResource object) {
    return object.getMetadata().getNamespace()
        + "/"
        + object.getMetadata().getName()
        + "/"
        + object.getMetadata().getUid();
  }

  @Override
  public void close() {
    loop.close();
    guests.values().forEach(SimulatedGuest::close);
    guests.clear();
  }
}
