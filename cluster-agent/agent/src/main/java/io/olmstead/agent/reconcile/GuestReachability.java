package io.olmstead.agent.reconcile;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.olmstead.agent.health.KubeApiProbe;
import io.olmstead.agent.k8s.ResourceException;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the cluster's Kubernetes API answered when last asked. A HyperShift guest whose control
 * plane is paused or down refuses or drops every call for as long as it stays so: this logs the
 * change once (not once per retry), and {@link AgentReconciler} reports it once per subscription as
 * {@code Pending/GuestUnreachable} and backs its passes off.
 */
public final class GuestReachability {
  /**
   * The reason reported on every desired subscription while the cluster's API cannot be reached.
   */
  static final String REASON = "GuestUnreachable";

  /**
   * Constant on purpose: a message varying with each error would be reported again at every retry.
   */
  static final String MESSAGE =
      "the cluster's Kubernetes API cannot be reached; retrying with backoff";

  private static final Logger LOG = LoggerFactory.getLogger(GuestReachability.class);

  private final String cluster;
  // "" while reachable (or not asked yet), else the first error of the current outage
  private final AtomicReference<String> outage = new AtomicReference<>("");

  /**
   * One per served cluster, kept across rebuilds of its client so an outage is logged once, not
   * once per client.
   */
  public GuestReachability(String cluster) {
    this.cluster = cluster;
  }

  /** Records an outage; true when it is news (the API was reachable until now). */
  boolean unreachable(Throwable cause) {
    String detail = KubeApiProbe.describe(cause);
    if (outage.compareAndSet("", detail)) {
      LOG.warn("cluster {}: {} ({})", cluster, MESSAGE, detail);
      return true;
    }
    LOG.debug("cluster {}: still unreachable ({})", cluster, detail);
    return false;
  }

  /** Records an answer; logs the end of an outage once. */
  void reachable() {
    String before = outage.getAndSet("");
    if (!before.isEmpty()) {
      LOG.info("cluster {}: the Kubernetes API answers again; resuming", cluster);
    }
  }

  boolean isUnreachable() {
    return !outage.get().isEmpty();
  }

  /**
   * True for a failure with no HTTP answer at all (refused, reset, timed out, name not resolved) or
   * a 503.
   */
  static boolean noAnswer(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ResourceException r) {
        return r.code() <= 0 || r.code() == 503;
      }
      if (t instanceof KubernetesClientException k) {
        return k.getCode() <= 0 || k.getCode() == 503;
      }
      if (t instanceof IOException) {
        return true;
      }
    }
    return false;
  }
}
