package io.olmstead.controlplane.db;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The embedded PostgreSQL's superuser password: generated once per data directory and kept in a
 * file only its owner may read (0600), so that another local user or process cannot log in to the
 * dev database.
 */
final class DevPassword {
  static final String FILE = "pg-password";
  private static final SecureRandom RANDOM = new SecureRandom();

  private DevPassword() {}

  /**
   * The stored password, or a new one written to {@code dataDir/pg-password}; {@code created} says
   * which.
   */
  record Loaded(String password, Path file, boolean created) {}

  static Loaded load(Path dataDir) throws IOException {
    Path file = dataDir.resolve(FILE);
    if (Files.exists(file)) {
      String stored = Files.readString(file, StandardCharsets.UTF_8).trim();
      if (stored.matches("[A-Za-z0-9_-]{20,}")) {
        return new Loaded(stored, file, false);
      }
      Files.delete(file); // damaged: a new password is set on the role below
    }
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    // URL-safe base64: no quote or backslash, so it can be written into ALTER ROLE ... PASSWORD
    // '...'
    String password = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    try {
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException e) {
      Files.createFile(file); // not a POSIX file system: the directory's own permissions protect it
    } catch (FileAlreadyExistsException e) {
      throw new IOException("another process created " + file + " at the same time", e);
    }
    Files.writeString(file, password + "\n", StandardCharsets.UTF_8);
    return new Loaded(password, file, true);
  }
}
