package io.olmstead.controlplane.hypershift.pool;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Pure: which live pool replica serves each hosted cluster. Rendezvous (highest random weight)
 * hashing: a cluster goes to the replica with the highest hash of (replica, cluster), so every
 * control plane replica computes the same answer from the same inputs, a replica leaving moves only
 * its own clusters, and a replica joining takes about 1/n of them.
 */
public final class PoolAssignment {
  private PoolAssignment() {}

  /** Cluster name to replica name; empty when no replica is live. */
  public static Map<String, String> assign(
      Collection<String> clusters, Collection<String> replicas) {
    Map<String, String> owners = new TreeMap<>();
    if (replicas.isEmpty()) {
      return owners;
    }
    for (String cluster : clusters) {
      String best = null;
      long bestWeight = 0;
      for (String replica : replicas) {
        long weight = weight(replica, cluster);
        // ties (astronomically rare) go to the smaller name, so the answer never depends on the
        // order given
        if (best == null
            || Long.compareUnsigned(weight, bestWeight) > 0
            || (weight == bestWeight && replica.compareTo(best) < 0)) {
          best = replica;
          bestWeight = weight;
        }
      }
      owners.put(cluster, best);
    }
    return owners;
  }

  /**
   * What one replica's connection must do: hand over the clusters it should serve that it does not
   * hold or that the store says were last handed to another replica (the credential it holds was
   * rotated away), and release the ones it holds that are no longer its own.
   */
  public static Plan plan(
      String replica,
      Map<String, String> owners,
      Set<String> held,
      Map<String, String> lastHandedTo) {
    Set<String> handOver = new LinkedHashSet<>();
    Set<String> release = new LinkedHashSet<>();
    owners.forEach(
        (cluster, owner) -> {
          if (owner.equals(replica)
              && (!held.contains(cluster) || !replica.equals(lastHandedTo.get(cluster)))) {
            handOver.add(cluster);
          }
        });
    for (String cluster : held) {
      if (!replica.equals(owners.get(cluster))) {
        release.add(cluster);
      }
    }
    return new Plan(handOver, release);
  }

  /** The clusters to hand over to a replica and the ones it must let go. */
  public record Plan(Set<String> handOver, Set<String> release) {
    public boolean isEmpty() {
      return handOver.isEmpty() && release.isEmpty();
    }
  }

  /** How many clusters each replica gets (for logs and tests). */
  public static Map<String, Integer> counts(Map<String, String> owners) {
    Map<String, Integer> counts = new HashMap<>();
    owners.values().forEach(r -> counts.merge(r, 1, Integer::sum));
    return counts;
  }

  static long weight(String replica, String cluster) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(replica.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      sha.update(cluster.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(sha.digest()).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
