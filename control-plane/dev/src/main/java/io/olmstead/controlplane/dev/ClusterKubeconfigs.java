package io.olmstead.controlplane.dev;

import io.olmstead.controlplane.db.StartupException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIMULATION: {@code <data-dir>/clusters/<cluster>.kubeconfig} (0600) for each simulated cluster of
 * {@code dev --simulate}, reaching its mock API server (plain HTTP on loopback, no credential: the
 * mock checks none), so a user can {@code kubectl} custom resources into it. A simulated cluster's
 * port changes with every start, so the files of an earlier run are replaced or, for clusters this
 * run does not have, deleted; the files are deleted when dev stops. Only files named like a
 * simulated cluster's ({@code sim-NN.kubeconfig}) are ever deleted.
 */
public final class ClusterKubeconfigs implements AutoCloseable {
  /** The directory under the data directory. */
  public static final String DIR = "clusters";

  private static final Logger LOG = LoggerFactory.getLogger(ClusterKubeconfigs.class);
  private static final Pattern OWNED = Pattern.compile("sim-\\d{2,3}\\.kubeconfig");

  private final List<Path> files;

  private ClusterKubeconfigs(List<Path> files) {
    this.files = files;
  }

  /** The kubeconfig file of {@code cluster} under {@code dataDir}. */
  public static Path file(Path dataDir, String cluster) {
    return dataDir.resolve(DIR).resolve(cluster + ".kubeconfig").toAbsolutePath();
  }

  /**
   * Writes one kubeconfig per entry of {@code servers} (cluster name to API server URL) and deletes
   * stale ones.
   */
  public static ClusterKubeconfigs write(Path dataDir, Map<String, String> servers) {
    Path dir = dataDir.resolve(DIR).toAbsolutePath();
    List<Path> written = new ArrayList<>();
    try {
      deleteStale(dir, servers.keySet().stream().map(name -> name + ".kubeconfig").toList());
      for (Map.Entry<String, String> server : servers.entrySet()) {
        Path file = file(dataDir, server.getKey());
        SimulatedManagementCluster.writeKubeconfig(file, server.getKey(), server.getValue());
        written.add(file);
      }
    } catch (IOException e) {
      new ClusterKubeconfigs(written).close();
      throw new StartupException(
          "dev mode: cannot write the simulated clusters' kubeconfigs in "
              + dir
              + ": "
              + e.getMessage(),
          e);
    }
    if (!written.isEmpty()) {
      LOG.info(
          "SIMULATION: kubeconfigs of the simulated clusters in {} (e.g. kubectl --kubeconfig {} get crds)",
          dir,
          written.get(0));
    }
    return new ClusterKubeconfigs(List.copyOf(written));
  }

  private static void deleteStale(Path dir, List<String> keep) throws IOException {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (OWNED.matcher(name).matches()
            && !keep.contains(name)
            && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
          Files.delete(entry);
        }
      }
    }
  }

  /** The files written, in cluster order. */
  public List<Path> files() {
    return files;
  }

  /** Deletes the files (the mock API servers they name are stopping). */
  @Override
  public void close() {
    for (Path file : files) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        LOG.warn("cannot delete {}: {}", file, e.toString());
      }
    }
  }
}
