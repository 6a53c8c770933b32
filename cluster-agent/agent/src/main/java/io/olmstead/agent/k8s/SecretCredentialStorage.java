package io.olmstead.agent.k8s;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.olmstead.agent.channel.CredentialStorage;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster credential kept in a Secret of the guest cluster, so an in-guest agent survives a pod
 * restart without a volume. Read once at open (off any event loop); {@link #save} and {@link
 * #clear} update the in-memory copy at once and write the Secret on a single background thread, in
 * order, because the channel client calls them from its event loop. The credential is never logged.
 */
public final class SecretCredentialStorage implements CredentialStorage, AutoCloseable {
  public static final String KEY = "credential";
  private static final Logger LOG = LoggerFactory.getLogger(SecretCredentialStorage.class);

  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  private final AtomicReference<String> value = new AtomicReference<>();
  private final ExecutorService writer =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "credential-secret-writer");
            t.setDaemon(true);
            return t;
          });

  private SecretCredentialStorage(KubernetesClient client, String namespace, String name) {
    this.client = client;
    this.namespace = namespace;
    this.name = name;
  }

  /** Reads the Secret (blocking): an absent Secret or key means no credential yet. */
  public static SecretCredentialStorage open(
      KubernetesClient client, String namespace, String name) {
    SecretCredentialStorage storage = new SecretCredentialStorage(client, namespace, name);
    Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
    if (secret != null && secret.getData() != null && secret.getData().get(KEY) != null) {
      String decoded =
          new String(Base64.getDecoder().decode(secret.getData().get(KEY)), StandardCharsets.UTF_8)
              .trim();
      storage.value.set(decoded.isEmpty() ? null : decoded);
    }
    return storage;
  }

  @Override
  public Optional<String> load() {
    return Optional.ofNullable(value.get());
  }

  @Override
  public void save(String credential) {
    value.set(credential);
    writer.execute(() -> write(credential));
  }

  @Override
  public void clear() {
    value.set(null);
    writer.execute(() -> write(null));
  }

  /** Waits up to the given time for pending writes, then stops the writer. */
  @Override
  public void close() {
    writer.shutdown();
    try {
      writer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void write(String credential) {
    try {
      if (credential == null) {
        client.secrets().inNamespace(namespace).withName(name).delete();
        return;
      }
      Secret secret =
          new SecretBuilder()
              .withNewMetadata()
              .withName(name)
              .withNamespace(namespace)
              .addToLabels("app.kubernetes.io/managed-by", "olmstead-agent")
              .endMetadata()
              .withType("Opaque")
              .addToData(
                  KEY,
                  Base64.getEncoder().encodeToString(credential.getBytes(StandardCharsets.UTF_8)))
              .build();
      client
          .secrets()
          .inNamespace(namespace)
          .resource(secret)
          .createOr(existing -> existing.update());
    } catch (KubernetesClientException e) {
      // the credential stays usable in memory; the next restart re-enrolls if the write never lands
      LOG.warn(
          "cannot write credential Secret {}/{}: HTTP {} {}",
          namespace,
          name,
          e.getCode(),
          e.getStatus() == null ? e.getClass().getSimpleName() : e.getStatus().getReason());
    }
  }
}
