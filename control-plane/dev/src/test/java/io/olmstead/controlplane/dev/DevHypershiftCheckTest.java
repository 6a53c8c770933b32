package io.olmstead.controlplane.dev;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code --simulate-hypershift} and {@code --hypershift-crds} are refused with a line naming the
 * flag.
 */
class DevHypershiftCheckTest {

  @Test
  void aCountOutOfRangeNamesTheFlag() {
    assertThatThrownBy(() -> DevHypershift.check(-1, null))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("--simulate-hypershift")
        .hasMessageContaining("0 to 200");
    assertThatThrownBy(() -> DevHypershift.check(201, null))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("--simulate-hypershift");
  }

  @Test
  void aDirectoryWithoutTheCrdsNamesTheFlagAndTheMissingFileButOnlyWhenSimulating()
      throws Exception {
    Path empty = Files.createTempDirectory("no-crds");
    assertThatThrownBy(() -> DevHypershift.check(3, empty))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("--hypershift-crds")
        .hasMessageContaining("hostedclusters.hypershift.openshift.io");
    assertThatCode(() -> DevHypershift.check(0, empty)).doesNotThrowAnyException();
  }
}
