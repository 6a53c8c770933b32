package io.olmstead.controlplane.registry;

import com.google.cloud.tools.jib.api.Credential;
import com.google.cloud.tools.jib.api.ImageReference;
import com.google.cloud.tools.jib.event.EventHandlers;
import com.google.cloud.tools.jib.frontend.CredentialRetrieverFactory;
import com.google.cloud.tools.jib.http.FailoverHttpClient;
import com.google.cloud.tools.jib.registry.RegistryClient;
import com.google.cloud.tools.jib.registry.credentials.CredentialRetrievalException;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.registry.RegistryException.Kind;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Authenticated jib registry clients of one registry operation, one per repository, kept for a
 * minute (bearer tokens are scoped to a repository and short-lived). Credentials come from the auth
 * file (containers auth.json / docker config.json); plain HTTP (and unverified TLS) only for the
 * hosts listed as insecure.
 */
final class JibClients {

  private static final long TTL_NANOS = 60_000_000_000L;
  private static final String USER_AGENT = "olmstead";

  private record Entry(RegistryClient client, long created) {}

  private final RegistrySettings settings;
  private final RegistryHttp http;
  private final Map<String, Entry> cache = new ConcurrentHashMap<>();

  JibClients(RegistrySettings settings, RegistryHttp http) {
    this.settings = settings;
    this.http = http;
  }

  RegistryClient forImage(ImageReference ref) throws RegistryException {
    String key = ref.getRegistry() + "/" + ref.getRepository();
    long now = System.nanoTime();
    Entry e = cache.get(key);
    if (e != null && now - e.created() < TTL_NANOS) {
      return e.client();
    }
    RegistryClient client = authenticate(ref);
    if (cache.size() > 1024) {
      cache.clear();
    }
    cache.put(key, new Entry(client, now));
    return client;
  }

  private RegistryClient authenticate(ImageReference ref) throws RegistryException {
    FailoverHttpClient client = http.client(settings.insecure(ref.getRegistry()));
    RegistryClient.Factory factory =
        RegistryClient.factory(EventHandlers.NONE, ref.getRegistry(), ref.getRepository(), client)
            .setUserAgent(USER_AGENT);
    Optional<Credential> credential = credential(ref);
    credential.ifPresent(factory::setCredential);
    RegistryClient registry = factory.newRegistryClient();
    try {
      // bearer token flow when the registry asks for it (WWW-Authenticate: Bearer), else basic with
      // the credential
      if (!registry.doPullBearerAuth() && credential.isPresent()) {
        registry.configureBasicAuth();
      }
    } catch (IOException | com.google.cloud.tools.jib.api.RegistryException ex) {
      throw JibErrors.map(ref, "authentication", ex);
    }
    return registry;
  }

  private Optional<Credential> credential(ImageReference ref) throws RegistryException {
    if (settings.authFile().isEmpty()) {
      return Optional.empty();
    }
    try {
      return CredentialRetrieverFactory.forImage(ref, e -> {})
          .dockerConfig(settings.authFile().get())
          .retrieve();
    } catch (CredentialRetrievalException e) {
      // the message of a credential failure may quote the file's content: say only where to look
      throw new RegistryException(
          Kind.DENIED,
          "cannot read credentials for "
              + ref.getRegistry()
              + " from "
              + RegistrySettings.AUTH_FILE);
    }
  }
}
