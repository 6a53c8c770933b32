package io.olmstead.agent.reconcile;

import io.olmstead.apispec.protocol.Preflight;
import io.olmstead.apispec.protocol.PreflightFinding;
import io.olmstead.olmcore.lifecycle.CrdSchemaFinding;
import io.olmstead.olmcore.lifecycle.Requirements;
import io.olmstead.olmcore.lifecycle.Requirements.RequirementStatus;
import io.olmstead.olmcore.maturity.RemovedApis;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pure half of a preflight: how CRD schema findings count under a subscription's {@code
 * crdUpgradeSafety}, unmet install requirements and APIs the cluster's Kubernetes no longer serves,
 * and the verdict with its findings bounded for the wire.
 */
public final class PreflightRules {
  /** What the CRD schema change rules do to an upgrade, per subscription. */
  public enum CrdUpgradeSafety {
    /** A breaking finding blocks the upgrade on that cluster. */
    STRICT,
    /** Findings are reported, the upgrade goes on. */
    WARN,
    /**
     * The rules are not applied (today's behaviour: only stored versions and existing resources are
     * checked).
     */
    NONE;

    /** {@code Strict|Warn|None}; anything else (or absent) is {@code None}. */
    public static CrdUpgradeSafety parse(String text) {
      if ("Strict".equalsIgnoreCase(text)) {
        return STRICT;
      }
      return "Warn".equalsIgnoreCase(text) ? WARN : NONE;
    }
  }

  private static final Pattern MAJOR_MINOR = Pattern.compile("^v?(\\d+)\\.(\\d+)");
  private static final int MAX_SUBJECT = 512;
  private static final int MAX_MESSAGE = 2048;

  private PreflightRules() {}

  /**
   * A schema finding as a preflight finding: an error only for a breaking change under {@code
   * Strict}.
   */
  public static Optional<PreflightFinding> schemaFinding(
      CrdSchemaFinding f, String crd, CrdUpgradeSafety safety) {
    if (safety == CrdUpgradeSafety.NONE) {
      return Optional.empty();
    }
    boolean error =
        safety == CrdUpgradeSafety.STRICT && f.severity() == CrdSchemaFinding.Severity.BREAKING;
    return Optional.of(finding(f.id(), error, crd + " " + f.path(), f.message()));
  }

  /**
   * The first breaking schema finding, as the reason a {@code Strict} subscription refuses an
   * upgrade.
   */
  public static Optional<String> strictRefusal(List<CrdSchemaFinding> findings, String crd) {
    return findings.stream()
        .filter(f -> f.severity() == CrdSchemaFinding.Severity.BREAKING)
        .findFirst()
        .map(f -> f.id() + ": " + crd + " " + f.path() + ": " + f.message());
  }

  /**
   * An unmet install requirement (olm-core's {@link Requirements}, the check the install makes) as
   * an error finding: {@code KubeVersionTooOld} for {@code minKubeVersion}, {@code
   * RequirementNotMet} for a missing API or CRD.
   */
  public static Optional<PreflightFinding> requirement(RequirementStatus status) {
    if (status.met()) {
      return Optional.empty();
    }
    boolean kube = "ClusterServiceVersion".equals(status.kind());
    return Optional.of(
        finding(
            kube ? "KubeVersionTooOld" : "RequirementNotMet",
            true,
            kube ? "minKubeVersion" : status.kind() + " " + status.name(),
            kube ? status.message() : status.describe()));
  }

  /**
   * {@code ApiRemoved} when the cluster's Kubernetes no longer serves the object's apiVersion and
   * kind.
   */
  public static Optional<PreflightFinding> removedApi(
      String apiVersion, String kind, String name, String clusterVersion) {
    Optional<int[]> cluster = majorMinor(clusterVersion);
    Optional<int[]> removed =
        RemovedApis.removedIn(apiVersion, kind).flatMap(PreflightRules::majorMinor);
    if (cluster.isEmpty() || removed.isEmpty()) {
      return Optional.empty();
    }
    boolean gone =
        cluster.get()[0] > removed.get()[0]
            || (cluster.get()[0] == removed.get()[0] && cluster.get()[1] >= removed.get()[1]);
    return gone
        ? Optional.of(
            finding(
                "ApiRemoved",
                true,
                apiVersion + " " + kind + " " + name,
                apiVersion
                    + " "
                    + kind
                    + " is not served since Kubernetes "
                    + removed.get()[0]
                    + "."
                    + removed.get()[1]
                    + "; the cluster runs "
                    + clusterVersion))
        : Optional.empty();
  }

  /** A finding with its texts cut to the protocol's bounds. */
  public static PreflightFinding finding(
      String code, boolean error, String subject, String message) {
    return new PreflightFinding(
        code,
        error ? PreflightFinding.ERROR : PreflightFinding.WARNING,
        subject == null ? null : cut(subject, MAX_SUBJECT),
        cut(message == null ? "" : message, MAX_MESSAGE));
  }

  /**
   * The answer to a request: the verdict from every finding, errors listed first and at most {@link
   * Preflight#MAX_FINDINGS} of them (the last one then says how many were left out).
   */
  public static Preflight answer(
      int protocol,
      String requestId,
      String subscription,
      String version,
      List<PreflightFinding> findings) {
    String verdict = Preflight.verdictOf(findings);
    List<PreflightFinding> sorted = new ArrayList<>(findings);
    sorted.sort(Comparator.comparing(f -> PreflightFinding.ERROR.equals(f.severity()) ? 0 : 1));
    if (sorted.size() > Preflight.MAX_FINDINGS) {
      int left = sorted.size() - (Preflight.MAX_FINDINGS - 1);
      sorted = new ArrayList<>(sorted.subList(0, Preflight.MAX_FINDINGS - 1));
      sorted.add(finding("MoreFindings", false, null, left + " more findings not listed"));
    }
    return new Preflight(
        protocol, null, requestId, subscription, version, verdict, List.copyOf(sorted));
  }

  private static Optional<int[]> majorMinor(String version) {
    if (version == null) {
      return Optional.empty();
    }
    Matcher m = MAJOR_MINOR.matcher(version.trim());
    return m.find()
        ? Optional.of(new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))})
        : Optional.empty();
  }

  private static String cut(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max);
  }
}
