package io.olmstead.agent.channel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where the agent keeps its cluster credential between runs (a file here; a Secret in the in-guest
 * agent).
 */
public interface CredentialStorage {
  Optional<String> load();

  void save(String credential);

  void clear();

  /** Kept in memory only: hollow agents and tests. */
  static CredentialStorage inMemory() {
    AtomicReference<String> value = new AtomicReference<>();
    return new CredentialStorage() {
      @Override
      public Optional<String> load() {
        return Optional.ofNullable(value.get());
      }

      @Override
      public void save(String credential) {
        value.set(credential);
      }

      @Override
      public void clear() {
        value.set(null);
      }
    };
  }

  /**
   * A file readable by the owner only, replaced atomically. Small, so blocking I/O here is brief.
   */
  static CredentialStorage file(Path path) {
    return new CredentialStorage() {
      @Override
      public Optional<String> load() {
        try {
          return Files.exists(path)
              ? Optional.of(Files.readString(path, StandardCharsets.UTF_8).trim())
                  .filter(s -> !s.isEmpty())
              : Optional.empty();
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read credential " + path, e);
        }
      }

      @Override
      public void save(String credential) {
        try {
          Path parent = path.toAbsolutePath().getParent();
          Files.createDirectories(parent);
          Path tmp = Files.createTempFile(parent, ".credential", ".tmp");
          try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
          } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the directory's permissions are all there is
          }
          Files.writeString(tmp, credential, StandardCharsets.UTF_8);
          Files.move(
              tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot store credential " + path, e);
        }
      }

      @Override
      public void clear() {
        try {
          Files.deleteIfExists(path);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot delete credential " + path, e);
        }
      }
    };
  }
}
