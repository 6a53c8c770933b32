package io.olmstead.olmcore.lifecycle;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The facts {@link CsvPhaseRules} decides from. Text fields hold the problem's message and are
 * {@code null} when there is no such problem. Start from {@link #in(CsvPhase)} and add facts with
 * the {@code with*} methods.
 *
 * @param currentPhase the CSV's phase before this observation
 * @param replacedBy name of a newer CSV that replaces this one, or null
 * @param replacementSucceeded whether that newer CSV reached Succeeded
 * @param unsupportedOperatorGroup why the OperatorGroup cannot host this CSV, or null
 * @param invalidInstallModes why the CSV's install modes do not fit the target namespaces, or null
 * @param invalidInstallStrategy why the install strategy is unusable, or null
 * @param unmetRequirements which required APIs/CRDs/permissions are missing, or null when all are
 *     met
 * @param upgrade the replaced operator's Upgradeable decision (see {@link UpgradeableCheck})
 * @param objectsApplied whether every object of the install plan exists on the cluster as planned
 * @param apiRejection the API server's rejection of an object, or null
 * @param deployments the observed deployments of the install strategy
 */
public record CsvObservation(
    CsvPhase currentPhase,
    String replacedBy,
    boolean replacementSucceeded,
    String unsupportedOperatorGroup,
    String invalidInstallModes,
    String invalidInstallStrategy,
    String unmetRequirements,
    UpgradeDecision upgrade,
    boolean objectsApplied,
    String apiRejection,
    List<DeploymentState> deployments) {

  public CsvObservation {
    currentPhase = currentPhase == null ? CsvPhase.NONE : currentPhase;
    upgrade = upgrade == null ? UpgradeDecision.allow() : upgrade;
    deployments =
        deployments == null
            ? List.of()
            : deployments.stream()
                .filter(Objects::nonNull)
                .collect(Collectors.toUnmodifiableList());
  }

  /**
   * A CSV in {@code phase} whose requirements are met and whose objects have not been applied yet.
   */
  public static CsvObservation in(CsvPhase phase) {
    return new CsvObservation(
        phase, null, false, null, null, null, null, null, false, null, List.of());
  }

  public CsvObservation withReplacedBy(String newerCsv, boolean newerSucceeded) {
    return new CsvObservation(
        currentPhase,
        newerCsv,
        newerSucceeded,
        unsupportedOperatorGroup,
        invalidInstallModes,
        invalidInstallStrategy,
        unmetRequirements,
        upgrade,
        objectsApplied,
        apiRejection,
        deployments);
  }

  public CsvObservation withUnsupportedOperatorGroup(String message) {
    return new CsvObservation(
        currentPhase,
        replacedBy,
        replacementSucceeded,
        message,
        invalidInstallModes,
        invalidInstallStrategy,
        unmetRequirements,
        upgrade,
        objectsApplied,
        apiRejection,
        deployments);
  }

  public CsvObservation withInvalidInstallModes(String message) {
    return new CsvObservation(
        currentPhase,
        replacedBy,
        replacementSucceeded,
        unsupportedOperatorGroup,
        message,
        invalidInstallStrategy,
        unmetRequirements,
        upgrade,
        objectsApplied,
        apiRejection,
        deployments);
  }

  public CsvObservation withInvalidInstallStrategy(String message) {
    return new CsvObservation(
        currentPhase,
        replacedBy,
        replacementSucceeded,
        unsupportedOperatorGroup,
        invalidInstallModes,
        message,
        unmetRequirements,
        upgrade,
        objectsApplied,
        apiRejection,
        deployments);
  }

  public CsvObservation withUnmetRequirements(String message) {
    return new CsvObservation(
        currentPhase,
        replacedBy,
        replacementSucceeded,
        unsupportedOperatorGroup,
        invalidInstallModes,
        invalidInstallStrategy,
        message,
        upgrade,
        objectsApplied,
        apiRejection,
        deployments);
  }

  public CsvObservation withUpgrade(UpgradeDecision decision) {
    return new CsvObservation(
        currentPhase,
        replacedBy,
        replacementSucceeded,
        unsupportedOperatorGroup,
        invalidInstallModes,
        invalidInstallStrategy,
        unmetRequirements,
        decision,
        objectsApplied,
        apiRejection,
        deployments);
  }

  /** Objects applied, with the deployments as observed. */
  public CsvObservation withApplied(DeploymentState... observed) {
    return new CsvObservation(
        currentPhase,
        replacedBy,
        replacementSucceeded,
        unsupportedOperatorGroup,
        invalidInstallModes,
        invalidInstallStrategy,
        unmetRequirements,
        upgrade,
        true,
        apiRejection,
        observed == null ? List.of() : Arrays.asList(observed));
  }

  /** Objects missing or changed on the cluster (or never applied). */
  public CsvObservation withObjectsMissing() {
    return new CsvObservation(
        currentPhase,
        replacedBy,
        replacementSucceeded,
        unsupportedOperatorGroup,
        invalidInstallModes,
        invalidInstallStrategy,
        unmetRequirements,
        upgrade,
        false,
        apiRejection,
        deployments);
  }

  public CsvObservation withApiRejection(String message) {
    return new CsvObservation(
        currentPhase,
        replacedBy,
        replacementSucceeded,
        unsupportedOperatorGroup,
        invalidInstallModes,
        invalidInstallStrategy,
        unmetRequirements,
        upgrade,
        objectsApplied,
        message,
        deployments);
  }
}
