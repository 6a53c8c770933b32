package io.olmstead.olmcore.lifecycle;

import io.olmstead.olmcore.semver.Version;
import java.util.Optional;

/**
 * Who may write a CRD that several installs share (one package installed at two versions in two
 * namespaces, as OLM allows): the install of the newest owning bundle. A CRD is never replaced by
 * an older bundle's schema, and once two installs of one version share it, only the one that wrote
 * it restores it, so no two installs ever take turns. Pure: the caller reads the writer recorded on
 * the CRD and whether that install is still on the cluster.
 */
public final class SharedCrdRule {

  /**
   * The install that writes (or wrote) a CRD.
   *
   * @param packageName the owning bundle's package
   * @param version the owning bundle's version (semver)
   * @param install the install's identity on the cluster ({@code namespace/subscription})
   */
  public record Writer(String packageName, String version, String install) {}

  /**
   * The CRD as the cluster has it.
   *
   * @param writer the writer recorded on it, or null when none is (created by someone else)
   * @param writerInstalled whether the recorded writer's install is still on the cluster
   */
  public record Existing(Writer writer, boolean writerInstalled) {}

  /** What the install does with the CRD. */
  public enum Action {
    /** Write its own schema (create, upgrade, or restore drift). */
    WRITE,
    /** Leave the CRD as it is and run on it: another install's schema is the one to keep. */
    KEEP
  }

  /** The action and why, for logs and status messages. */
  public record Verdict(Action action, String reason) {
    public boolean writes() {
      return action == Action.WRITE;
    }
  }

  private SharedCrdRule() {}

  /**
   * What {@code mine} does with a CRD that exists as {@code existing} (null: the CRD does not
   * exist).
   */
  public static Verdict decide(Existing existing, Writer mine) {
    if (existing == null) {
      return write("the CRD does not exist yet");
    }
    Writer theirs = existing.writer();
    if (theirs == null) {
      return write("no install recorded as the CRD's writer");
    }
    if (theirs.install().equals(mine.install())) {
      return write("this install wrote the CRD");
    }
    if (!theirs.packageName().equals(mine.packageName())) {
      return existing.writerInstalled()
          ? keep("package " + theirs.packageName() + " (" + theirs.install() + ") owns the CRD")
          : write(
              "package " + theirs.packageName() + ", which wrote the CRD, is no longer installed");
    }
    Optional<Version> their = Version.tryParse(theirs.version());
    Optional<Version> own = Version.tryParse(mine.version());
    int order = their.isPresent() && own.isPresent() ? own.get().compareTo(their.get()) : 0;
    if (order > 0) {
      return write(
          "version "
              + mine.version()
              + " is newer than "
              + theirs.version()
              + ", which wrote the CRD");
    }
    if (order < 0) {
      return keep(
          "version " + theirs.version() + " (" + theirs.install() + ") is newer and keeps its CRD");
    }
    return existing.writerInstalled()
        ? keep(theirs.install() + " installed the same version and restores the CRD")
        : write(
            theirs.install() + ", which wrote the CRD at the same version, is no longer installed");
  }

  private static Verdict write(String reason) {
    return new Verdict(Action.WRITE, reason);
  }

  private static Verdict keep(String reason) {
    return new Verdict(Action.KEEP, reason);
  }
}
