package io.olmstead.controlplane.cli;

import io.olmstead.controlplane.db.StartupException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a dev data directory, held for the life of the process (the operating system
 * releases it when the process ends, even on kill -9), so that a second {@code dev} neither wipes
 * (--fresh) nor starts a second PostgreSQL on a directory another one is using.
 */
final class DataDirLock implements AutoCloseable {
  /** The lock file inside the data directory; {@code --fresh} keeps it. */
  static final String FILE = "olmstead-dev.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private DataDirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock or fails with a one-line {@link StartupException} naming the directory and the
   * holder.
   */
  static DataDirLock acquire(Path dir) {
    Path file = dir.resolve(FILE);
    FileChannel channel = null;
    try {
      Files.createDirectories(dir);
      channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock = tryLock(channel);
      if (lock == null) {
        String holder = holder(file);
        channel.close();
        throw new StartupException(
            "data directory "
                + dir
                + " is in use by another 'dev'"
                + holder
                + "; stop it first or choose another --data-dir");
      }
      channel.truncate(0);
      channel.write(
          ByteBuffer.wrap(
              String.valueOf(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)));
      channel.force(false);
      return new DataDirLock(channel, lock);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new StartupException("cannot lock data directory " + dir + ": " + e.getMessage(), e);
    }
  }

  private static FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException e) {
      return null; // held by this very process (another dev command run in the same JVM)
    }
  }

  private static String holder(Path file) {
    try {
      String pid = Files.readString(file, StandardCharsets.UTF_8).trim();
      return pid.matches("\\d{1,10}") ? " (pid " + pid + ")" : "";
    } catch (IOException e) {
      return "";
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      // nothing was locked through it
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException e) {
      // closing the channel below releases it as well
    }
    closeQuietly(channel);
  }
}
