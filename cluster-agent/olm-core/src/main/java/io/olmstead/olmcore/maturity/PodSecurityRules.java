package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The operator pods against the Kubernetes Pod Security Standards ("restricted" and "baseline"
 * profiles: kubernetes.io/docs/concepts/security/pod-security-standards), as pod-security-admission
 * checks them (exact values: {@code drop: [ALL]} is case-sensitive there, so "All" does not count).
 */
final class PodSecurityRules implements RuleFamily {

  static final String NON_ROOT = "security/run-as-non-root";
  static final String ESCALATION = "security/allow-privilege-escalation";
  static final String CAPABILITIES = "security/capabilities";
  static final String SECCOMP = "security/seccomp-profile";
  static final String PRIVILEGED = "security/privileged";
  static final String HOST_NAMESPACES = "security/host-namespaces";
  static final String HOST_PATH = "security/host-path";
  static final String READ_ONLY_ROOT = "security/read-only-root-filesystem";

  @Override
  public List<String> rules() {
    return List.of(
        NON_ROOT,
        ESCALATION,
        CAPABILITIES,
        SECCOMP,
        PRIVILEGED,
        HOST_NAMESPACES,
        HOST_PATH,
        READ_ONLY_ROOT);
  }

  @Override
  public void check(BundleView view, Findings out) {
    for (OperatorPods pod : OperatorPods.of(view)) {
      JsonNode podSc = pod.podSpec().path("securityContext");
      String p = "spec.template.spec.";
      for (String host : List.of("hostNetwork", "hostPID", "hostIPC")) {
        if (pod.podSpec().path(host).asBoolean(false)) {
          out.add(
              HOST_NAMESPACES,
              Category.SECURITY,
              Severity.ERROR,
              pod.object(),
              p + host,
              pod.object() + " sets " + p + host + ": true (baseline: host namespaces)");
        }
      }
      for (JsonNode vol : Json.array(pod.podSpec(), "volumes")) {
        if (vol.has("hostPath")) {
          out.add(
              HOST_PATH,
              Category.SECURITY,
              Severity.WARNING,
              pod.object(),
              p + "volumes[" + Json.text(vol, "name") + "].hostPath",
              pod.object()
                  + " mounts a hostPath volume '"
                  + Json.text(vol, "name")
                  + "' (baseline)");
        }
      }
      boolean podNonRoot = podSc.path("runAsNonRoot").asBoolean(false);
      boolean podSeccomp = goodSeccomp(podSc.path("seccompProfile"));
      for (JsonNode c : pod.containers(true)) {
        checkContainer(pod, c, podNonRoot, podSeccomp, out);
      }
    }
  }

  private static void checkContainer(
      OperatorPods pod, JsonNode c, boolean podNonRoot, boolean podSeccomp, Findings out) {
    JsonNode sc = c.path("securityContext");
    String at = OperatorPods.containerPath(c, "securityContext");
    String who = pod.object() + " container " + Json.text(c, "name");
    JsonNode nonRoot = sc.path("runAsNonRoot");
    // restricted: runAsNonRoot must be true on the pod or on every container, and no container may
    // set false
    if (nonRoot.isBoolean() ? !nonRoot.booleanValue() : !podNonRoot) {
      out.add(
          NON_ROOT,
          Category.SECURITY,
          Severity.ERROR,
          pod.object(),
          at + ".runAsNonRoot",
          who
              + ": neither spec.template.spec.securityContext nor "
              + at
              + " sets runAsNonRoot: true");
    }
    if (!sc.path("allowPrivilegeEscalation").isBoolean()
        || sc.path("allowPrivilegeEscalation").booleanValue()) {
      out.add(
          ESCALATION,
          Category.SECURITY,
          Severity.WARNING,
          pod.object(),
          at + ".allowPrivilegeEscalation",
          who + ": " + at + ".allowPrivilegeEscalation is not false (restricted)");
    }
    List<String> drop = Json.strings(sc.path("capabilities"), "drop");
    if (!drop.contains("ALL")) {
      out.add(
          CAPABILITIES,
          Category.SECURITY,
          Severity.WARNING,
          pod.object(),
          at + ".capabilities.drop",
          who
              + ": "
              + at
              + ".capabilities.drop does not contain \"ALL\""
              + (drop.stream().anyMatch("ALL"::equalsIgnoreCase)
                  ? " (it has another spelling, which the" + " restricted profile does not accept)"
                  : "")
              + " (restricted)");
    }
    for (String add : Json.strings(sc.path("capabilities"), "add")) {
      if (!"NET_BIND_SERVICE".equals(add)) {
        out.add(
            CAPABILITIES,
            Category.SECURITY,
            Severity.WARNING,
            pod.object(),
            at + ".capabilities.add",
            who + ": adds capability " + add + " (restricted allows only NET_BIND_SERVICE)");
      }
    }
    if (!goodSeccomp(sc.path("seccompProfile")) && !(podSeccomp && !sc.has("seccompProfile"))) {
      out.add(
          SECCOMP,
          Category.SECURITY,
          Severity.WARNING,
          pod.object(),
          at + ".seccompProfile",
          who
              + ": no RuntimeDefault or Localhost seccompProfile on the pod or container (restricted)");
    }
    if (sc.path("privileged").asBoolean(false)) {
      out.add(
          PRIVILEGED,
          Category.SECURITY,
          Severity.ERROR,
          pod.object(),
          at + ".privileged",
          who + ": runs privileged (baseline)");
    }
    if (!sc.path("readOnlyRootFilesystem").asBoolean(false)) {
      // not part of the Pod Security Standards; NSA/CISA Kubernetes Hardening Guidance recommends
      // it
      out.add(
          READ_ONLY_ROOT,
          Category.SECURITY,
          Severity.INFO,
          pod.object(),
          at + ".readOnlyRootFilesystem",
          who + ": root filesystem is writable (readOnlyRootFilesystem is not true)");
    }
  }

  private static boolean goodSeccomp(JsonNode profile) {
    String type = Json.text(profile, "type");
    return "RuntimeDefault".equals(type) || "Localhost".equals(type);
  }
}
