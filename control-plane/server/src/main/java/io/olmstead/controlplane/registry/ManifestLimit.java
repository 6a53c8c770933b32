package io.olmstead.controlplane.registry;

import io.olmstead.controlplane.config.RegistrySettings;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.http.HttpConnection;
import org.apache.http.HttpEntity;
import org.apache.http.HttpResponse;
import org.apache.http.HttpResponseInterceptor;
import org.apache.http.entity.HttpEntityWrapper;
import org.apache.http.protocol.HttpContext;
import org.apache.http.protocol.HttpCoreContext;

/**
 * Bounds manifest and index bodies while they arrive: jib reads a manifest whole into a string
 * before parsing it, so a registry answering with a huge (or endless) manifest would fill the heap.
 * A declared length over the limit is refused before reading; an undeclared or lying one is cut at
 * the limit. Either way the connection is reset, not closed: closing a response reads its body to
 * the end (to reuse the connection), which for an endless body is forever.
 */
final class ManifestLimit implements HttpResponseInterceptor {

  /** A manifest over {@code OLMSTEAD_REGISTRY_MAX_MANIFEST_BYTES}. */
  static final class TooLarge extends IOException {
    TooLarge(long max) {
      super(
          "manifest over the limit of "
              + max
              + " bytes ("
              + RegistrySettings.MAX_MANIFEST_BYTES
              + ")");
    }
  }

  private final long max;

  ManifestLimit(long max) {
    this.max = max;
  }

  @Override
  public void process(HttpResponse response, HttpContext context) throws IOException {
    HttpEntity entity = response.getEntity();
    String uri = HttpCoreContext.adapt(context).getRequest().getRequestLine().getUri();
    if (entity == null || !uri.contains("/manifests/")) {
      return;
    }
    HttpConnection connection = HttpCoreContext.adapt(context).getConnection();
    if (entity.getContentLength() > max) {
      throw cut(connection, max);
    }
    response.setEntity(
        new HttpEntityWrapper(entity) {
          @Override
          public InputStream getContent() throws IOException {
            return new Bounded(super.getContent(), max, connection);
          }
        });
  }

  /** Shuts the connection down (no more reading from it) and answers the error to throw. */
  private static TooLarge cut(HttpConnection connection, long max) {
    try {
      if (connection != null) {
        connection.shutdown();
      }
    } catch (IOException e) {
      // already gone: nothing more will be read from it either way
    }
    return new TooLarge(max);
  }

  private static final class Bounded extends FilterInputStream {
    private final ByteBudget budget;

    Bounded(InputStream in, long max, HttpConnection connection) {
      super(in);
      this.budget = new ByteBudget(max, () -> cut(connection, max));
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      budget.spend(b >= 0 ? 1 : 0);
      return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
      int n = super.read(buf, off, len);
      budget.spend(Math.max(n, 0));
      return n;
    }
  }
}
