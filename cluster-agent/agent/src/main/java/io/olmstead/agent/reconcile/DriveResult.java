package io.olmstead.agent.reconcile;

import io.olmstead.agent.k8s.ApplyOutcome;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import io.olmstead.olmcore.lifecycle.CsvStatus;
import java.util.List;

/**
 * The outcome of driving one bundle for one pass.
 *
 * @param status the CSV-style phase, reason and message olm-core's rules gave
 * @param restored objects that had drifted from a Succeeded install and were put back (empty otherwise)
 * @param started false when nothing was applied (the bundle was refused before its first object)
 */
public record DriveResult(CsvStatus status, List<ApplyOutcome> restored, boolean started) {

  public DriveResult {
    restored = List.copyOf(restored);
  }

  /** True while more passes are needed (waiting for CRDs or deployments). */
  public boolean settling() {
    CsvPhase p = status.phase();
    return p == CsvPhase.PENDING || p == CsvPhase.INSTALL_READY || p == CsvPhase.INSTALLING || p == CsvPhase.NONE;
  }
}
