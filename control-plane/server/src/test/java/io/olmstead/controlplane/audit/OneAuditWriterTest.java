package io.olmstead.controlplane.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * audit_log has one writer, {@link Audit}: no other main source file holds SQL that inserts into
 * it.
 */
class OneAuditWriterTest {
  private static final Path MAIN = Path.of("src/main/java");
  private static final Path AUDIT_PACKAGE = MAIN.resolve("io/olmstead/controlplane/audit");
  // across string concatenation and text-block line breaks: "INSERT INTO " + "audit_log" counts too
  private static final Pattern INSERT =
      Pattern.compile("insert\\s+into\\s+(\\w+\\.)?\"?audit_log\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern CONCATENATION = Pattern.compile("\"\\s*\\+\\s*\"");

  static boolean insertsIntoAuditLog(String source) {
    return INSERT.matcher(CONCATENATION.matcher(source).replaceAll("")).find();
  }

  @Test
  void noClassOutsideTheAuditPackageInsertsIntoAuditLog() throws IOException {
    assertThat(MAIN).isDirectory();
    List<Path> writers;
    try (Stream<Path> files = Files.walk(MAIN)) {
      writers =
          files
              .filter(f -> f.toString().endsWith(".java"))
              .filter(f -> !f.startsWith(AUDIT_PACKAGE))
              .filter(f -> insertsIntoAuditLog(read(f)))
              .toList();
    }
    assertThat(writers)
        .as("raw INSERT INTO audit_log outside the audit package: call Audit instead")
        .isEmpty();
  }

  @Test
  void theAuditWriterItselfIsFoundByTheScan() {
    assertThat(insertsIntoAuditLog(read(AUDIT_PACKAGE.resolve("Audit.java")))).isTrue();
  }

  @Test
  void theScanSeesInsertsSplitAcrossConcatenationAndLines() {
    assertThat(
            insertsIntoAuditLog("String s = \"INSERT INTO \" + \"audit_log (actor) VALUES ($1)\";"))
        .isTrue();
    assertThat(insertsIntoAuditLog("\"\"\"\n  insert into\n   audit_log (actor)")).isTrue();
    assertThat(insertsIntoAuditLog("SELECT actor FROM audit_log")).isFalse();
    assertThat(insertsIntoAuditLog("INSERT INTO audit_logs_archive")).isFalse();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new IllegalStateException(file.toString(), e);
    }
  }
}
