package io.olmstead.agent.pool;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.olmstead.agent.config.KubernetesClients;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the kubeconfig a pool replica reaches a guest API with, reading Secrets of the management
 * cluster by name (the pool's RBAC is get on named Secrets only): the hosted control plane
 * namespace's {@code service-network-admin-kubeconfig} (what HyperShift's own OLM uses), or the
 * HostedCluster's {@code <name>-admin-kubeconfig} where the first is missing or its server cannot
 * be reached from this pod.
 */
final class GuestKubeconfigs {
  static final String SERVICE_NETWORK = "service-network-admin-kubeconfig";
  static final String KEY = "kubeconfig";
  private static final Logger LOG = LoggerFactory.getLogger(GuestKubeconfigs.class);

  private final KubernetesClient management;
  private final GuestClients clients;

  GuestKubeconfigs(KubernetesClient management, GuestClients clients) {
    this.management = management;
    this.clients = clients;
  }

  /** A kubeconfig (its text) and the Secret it came from, with that Secret's data as last read. */
  record Access(String namespace, String secret, String kubeconfig) {
    @Override
    public String toString() {
      return namespace + "/"
          + secret; // never the kubeconfig: it holds the guest's admin credentials
    }
  }

  /**
   * The kubeconfig to use now; empty when neither Secret has one (the caller tries again later).
   */
  Optional<Access> resolve(HostedTarget target) {
    Optional<Access> serviceNetwork = read(target.controlPlaneNamespace(), SERVICE_NETWORK);
    if (serviceNetwork.isPresent() && reachable(serviceNetwork.get())) {
      return serviceNetwork;
    }
    Optional<Access> admin = read(target.namespace(), target.name() + "-admin-kubeconfig");
    if (admin.isPresent()) {
      LOG.debug(
          "cluster {}: using {} ({} {})",
          target.cluster(),
          admin.get(),
          serviceNetwork.isPresent() ? "unreachable:" : "missing:",
          SERVICE_NETWORK);
      return admin;
    }
    return serviceNetwork;
  }

  /**
   * The Secret's kubeconfig as it is now (rotation check); empty when it is gone or has no
   * kubeconfig key.
   */
  Optional<String> current(Access access) {
    return read(access.namespace(), access.secret()).map(Access::kubeconfig);
  }

  private Optional<Access> read(String namespace, String name) {
    if (namespace == null || namespace.isBlank()) {
      return Optional.empty();
    }
    Secret secret = management.secrets().inNamespace(namespace).withName(name).get();
    if (secret == null || secret.getData() == null || secret.getData().get(KEY) == null) {
      return Optional.empty();
    }
    try {
      String text =
          new String(Base64.getDecoder().decode(secret.getData().get(KEY)), StandardCharsets.UTF_8);
      return Optional.of(new Access(namespace, name, text));
    } catch (IllegalArgumentException e) {
      LOG.warn("secret {}/{}: the {} key is not base64", namespace, name, KEY);
      return Optional.empty();
    }
  }

  /** Whether the kubeconfig's server answers at all (any HTTP status will do: it is there). */
  boolean reachable(Access access) {
    Config config;
    try {
      config = KubernetesClients.parse(access.kubeconfig());
    } catch (RuntimeException e) {
      return false;
    }
    config.setConnectionTimeout(3000);
    config.setRequestTimeout(5000);
    config.setRequestRetryBackoffLimit(0);
    try (KubernetesClient probe = clients.build(config)) {
      probe.namespaces().list(new ListOptionsBuilder().withLimit(1L).build());
      return true;
    } catch (KubernetesClientException e) {
      return e.getCode() > 0;
    } catch (RuntimeException e) {
      return false;
    }
  }
}
