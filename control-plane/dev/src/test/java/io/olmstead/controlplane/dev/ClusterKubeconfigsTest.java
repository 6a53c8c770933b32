package io.olmstead.controlplane.dev;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterKubeconfigsTest {
  @TempDir Path dataDir;

  @Test
  void eachSimulatedClusterGetsAnOwnerOnlyKubeconfigNamingItsServerAndTheFilesGoWhenDevStops()
      throws Exception {
    Map<String, String> servers = new LinkedHashMap<>();
    servers.put("sim-01", "http://localhost:40001/");
    servers.put("sim-02", "http://localhost:40002/");
    ClusterKubeconfigs written = ClusterKubeconfigs.write(dataDir, servers);

    Path first = dataDir.resolve("clusters/sim-01.kubeconfig").toAbsolutePath();
    assertThat(written.files())
        .containsExactly(first, dataDir.resolve("clusters/sim-02.kubeconfig").toAbsolutePath());
    assertThat(ClusterKubeconfigs.file(dataDir, "sim-01")).isEqualTo(first);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(first)))
        .isEqualTo("rw-------");
    assertThat(Files.readString(first))
        .contains("server: http://localhost:40001/", "current-context: sim-01", "- name: sim-01");
    assertThat(Files.list(dataDir.resolve("clusters"))).hasSize(2);

    written.close();
    assertThat(Files.list(dataDir.resolve("clusters"))).isEmpty();
  }

  @Test
  void aRestartReplacesTheEarlierRunsFilesAndDeletesThoseOfClustersItNoLongerHasButNothingElse()
      throws Exception {
    Path dir = Files.createDirectories(dataDir.resolve("clusters"));
    Files.writeString(dir.resolve("sim-01.kubeconfig"), "server: http://localhost:1/");
    Files.writeString(dir.resolve("sim-07.kubeconfig"), "stale");
    Files.writeString(dir.resolve("mine.kubeconfig"), "a user's own file");
    Files.createDirectories(dir.resolve("sim-08.kubeconfig"));

    ClusterKubeconfigs.write(dataDir, Map.of("sim-01", "http://localhost:40001/"));

    assertThat(Files.readString(dir.resolve("sim-01.kubeconfig")))
        .contains("http://localhost:40001/");
    assertThat(dir.resolve("sim-07.kubeconfig")).doesNotExist();
    assertThat(dir.resolve("mine.kubeconfig")).hasContent("a user's own file");
    assertThat(dir.resolve("sim-08.kubeconfig")).isDirectory();
    assertThat(Files.list(dir).filter(p -> p.toString().endsWith(".tmp"))).isEmpty();
  }
}
