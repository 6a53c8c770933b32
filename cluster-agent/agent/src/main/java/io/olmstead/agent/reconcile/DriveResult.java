package io.olmstead.agent.reconcile;

import io.olmstead.agent.k8s.ApplyOutcome;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import io.olmstead.olmcore.lifecycle.CsvStatus;
import java.util.List;

/**
 * The outcome of driving one bundle for one pass.
 *
 * @param status the CSV-style phase, reason and message olm-core's rules gave
 * @param restored objects that had drifted from a Succeeded install and were put back (empty
 *     otherwise)
 * @param started false when nothing was applied (the bundle was refused before its first object)
 * @param conflict why an object of the bundle may not be written (another subscription owns it),
 *     else null
 * @param csv the requirement status, webhooks and certificates known this pass
 */
public record DriveResult(
    CsvStatus status,
    List<ApplyOutcome> restored,
    boolean started,
    String conflict,
    CsvDetails csv) {

  public DriveResult {
    restored = List.copyOf(restored);
    csv = csv == null ? CsvDetails.NONE : csv;
  }

  public DriveResult(CsvStatus status, List<ApplyOutcome> restored, boolean started) {
    this(status, restored, started, null, CsvDetails.NONE);
  }

  /** This result with {@code details}. */
  DriveResult withCsv(CsvDetails details) {
    return new DriveResult(status, restored, started, conflict, details);
  }

  /** The bundle stops at an object another subscription owns: Failed, nothing more written. */
  static DriveResult conflict(String message) {
    return new DriveResult(
        new CsvStatus(CsvPhase.FAILED, null, message), List.of(), false, message, CsvDetails.NONE);
  }

  /**
   * True when a drift restore was held back by its backoff: the namespace needs another look later.
   */
  public boolean deferred() {
    return restored.stream().anyMatch(o -> o.result() == ApplyOutcome.Result.DEFERRED);
  }

  /** True while more passes are needed (waiting for CRDs or deployments). */
  public boolean settling() {
    CsvPhase p = status.phase();
    return p == CsvPhase.PENDING
        || p == CsvPhase.INSTALL_READY
        || p == CsvPhase.INSTALLING
        || p == CsvPhase.NONE;
  }
}
