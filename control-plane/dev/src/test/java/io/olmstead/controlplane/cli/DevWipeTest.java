package io.olmstead.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DevWipeTest {

  @Test
  void freshDeletesOnlyTheDatabaseAndItsPasswordNeverOtherFilesOfTheDirectory(@TempDir Path dir)
      throws Exception {
    Files.createDirectories(dir.resolve("pg/base/1"));
    Files.writeString(dir.resolve("pg/base/1/table"), "rows");
    Files.writeString(dir.resolve("pg-password"), "secret");
    Files.writeString(dir.resolve("olmstead-dev.lock"), "123");
    Path precious = Files.writeString(dir.resolve("precious.txt"), "a user's file");
    Path nested = Files.createDirectories(dir.resolve("sub"));
    Files.writeString(nested.resolve("y"), "more");

    DevCommand.wipe(dir);

    assertThat(dir.resolve("pg")).doesNotExist();
    assertThat(dir.resolve("pg-password")).doesNotExist();
    assertThat(dir.resolve("olmstead-dev.lock")).exists();
    assertThat(precious).hasContent("a user's file");
    assertThat(nested.resolve("y")).hasContent("more");
  }

  @Test
  void freshOnAnEmptyOrMissingDirectoryDoesNothing(@TempDir Path dir) {
    DevCommand.wipe(dir.resolve("missing"));
    DevCommand.wipe(dir);
    assertThat(dir).isEmptyDirectory();
  }
}
