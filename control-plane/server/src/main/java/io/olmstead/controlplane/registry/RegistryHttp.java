package io.olmstead.controlplane.registry;

import com.google.api.client.http.HttpTransport;
import com.google.api.client.http.apache.v2.ApacheHttpTransport;
import com.google.api.client.util.SslUtils;
import com.google.cloud.tools.jib.api.LogEvent;
import com.google.cloud.tools.jib.http.FailoverHttpClient;
import io.olmstead.controlplane.config.RegistrySettings;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.http.HttpRequest;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.protocol.HttpClientContext;
import org.apache.http.config.RegistryBuilder;
import org.apache.http.conn.socket.ConnectionSocketFactory;
import org.apache.http.conn.socket.PlainConnectionSocketFactory;
import org.apache.http.conn.ssl.NoopHostnameVerifier;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import org.apache.http.protocol.HttpContext;

/**
 * jib's HTTP client for one registry operation, on transports built here: no retry loop inside jib
 * (a silent or refusing registry otherwise holds a worker for ten backed-off retries; our unpack
 * retries are explicit and visible), every connection screened by {@link AddressGuard} on the
 * address actually dialled, manifests bounded by {@link ManifestLimit} while they are read (the
 * connection reset at the limit), credentials kept off unprotected connections by {@link
 * CredentialGuard}, each connect and read bounded by the idle timeout, and {@link #abort()} closing
 * every socket so a deadline really frees the thread. jib exposes the transport and retry switches
 * only through a package-private constructor (marked {@code @VisibleForTesting}), reached once by
 * reflection: a jib upgrade that changes it fails every registry call and {@code RegistryHttpTest}.
 */
final class RegistryHttp implements AutoCloseable {

  private static final Constructor<FailoverHttpClient> FAILOVER = failoverConstructor();

  private final AddressGuard guard;
  private final ManifestLimit manifests;
  private final Set<String> insecureHosts;
  private final int readTimeoutMillis;
  private final List<HttpTransport> transports = new ArrayList<>();
  private final FailoverHttpClient secure;
  private final FailoverHttpClient insecure;
  private boolean aborted;

  RegistryHttp(RegistrySettings settings) {
    this.guard = new AddressGuard(settings);
    this.manifests = new ManifestLimit(settings.maxManifestBytes());
    this.insecureHosts = settings.insecureHosts();
    this.readTimeoutMillis = Math.toIntExact(settings.readTimeout().toMillis());
    this.secure = failover(false);
    // listed hosts only: HTTP fallback and unverified TLS, and basic credentials may travel over it
    // (a lab registry)
    this.insecure = failover(true);
  }

  FailoverHttpClient client(boolean insecureHost) {
    return insecureHost ? insecure : secure;
  }

  /**
   * Closes every connection of this operation (a blocked read fails at once) and refuses new ones.
   */
  void abort() {
    List<HttpTransport> open;
    synchronized (transports) {
      aborted = true;
      open = new ArrayList<>(transports);
      transports.clear();
    }
    for (HttpTransport t : open) {
      try {
        t.shutdown();
      } catch (IOException | RuntimeException e) {
        // closing anyway: the socket is gone or going
      }
    }
  }

  @Override
  public void close() {
    abort();
  }

  private HttpTransport transport(boolean trustAll) {
    SSLConnectionSocketFactory tls =
        trustAll ? trustAllTls() : SSLConnectionSocketFactory.getSystemSocketFactory();
    PoolingHttpClientConnectionManager connections =
        new PoolingHttpClientConnectionManager(
            RegistryBuilder.<ConnectionSocketFactory>create()
                .register("http", guard.wrap(PlainConnectionSocketFactory.getSocketFactory()))
                .register("https", guard.wrap(tls))
                .build());
    // last: the limit counts the bytes jib reads, after any content decoding
    ApacheHttpTransport transport =
        new ApacheHttpTransport(
            ApacheHttpTransport.newDefaultHttpClientBuilder()
                .setConnectionManager(connections)
                .addInterceptorLast(manifests)
                .addInterceptorLast(new CredentialGuard(insecureHosts, !trustAll))
                .addInterceptorLast(this::idleTimeout)
                .build());
    synchronized (transports) {
      if (aborted) {
        throw new IllegalStateException("registry operation aborted");
      }
      transports.add(transport);
    }
    return transport;
  }

  /**
   * jib sets every request's connect and read timeouts from a process-wide property; this replaces
   * them with {@code OLMSTEAD_REGISTRY_READ_TIMEOUT_SECONDS}, the longest a connect or a single
   * read may wait.
   */
  private void idleTimeout(HttpRequest request, HttpContext context) {
    HttpClientContext c = HttpClientContext.adapt(context);
    c.setRequestConfig(
        RequestConfig.copy(c.getRequestConfig())
            .setConnectTimeout(readTimeoutMillis)
            .setSocketTimeout(readTimeoutMillis)
            .build());
  }

  private static SSLConnectionSocketFactory trustAllTls() {
    try {
      return new SSLConnectionSocketFactory(
          SslUtils.trustAllSSLContext(), NoopHostnameVerifier.INSTANCE);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("platform does not support TLS", e);
    }
  }

  private FailoverHttpClient failover(boolean insecureHost) {
    try {
      Consumer<LogEvent> quiet = e -> {};
      Supplier<HttpTransport> verified = () -> transport(false);
      Supplier<HttpTransport> unverified = () -> transport(true);
      return FAILOVER.newInstance(insecureHost, insecureHost, quiet, verified, unverified, false);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("jib-core's FailoverHttpClient cannot be built", e);
    }
  }

  private static Constructor<FailoverHttpClient> failoverConstructor() {
    try {
      Constructor<FailoverHttpClient> c =
          FailoverHttpClient.class.getDeclaredConstructor(
              boolean.class,
              boolean.class,
              Consumer.class,
              Supplier.class,
              Supplier.class,
              boolean.class);
      c.setAccessible(true);
      return c;
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(
          "jib-core's FailoverHttpClient has no transport constructor: " + e);
    }
  }
}
