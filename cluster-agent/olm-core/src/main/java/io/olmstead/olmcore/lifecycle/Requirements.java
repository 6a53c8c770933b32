package io.olmstead.olmcore.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.olmcore.fbc.Gvk;
import io.olmstead.olmcore.semver.Version;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * OLM's install requirements of a CSV ({@code olm/requirements.go}): {@code spec.minKubeVersion}
 * against the server's version, {@code spec.nativeAPIs} and {@code
 * spec.apiservicedefinitions.required} served by discovery, and {@code
 * spec.customresourcedefinitions.required} present, serving the version and Established. Each
 * requirement is a {@link RequirementStatus} with OLM's status and message; any not {@code Present}
 * keeps the CSV {@code Pending/RequirementsNotMet}. Pure: the caller reads what {@link #needs}
 * names and passes it in {@link Facts}.
 */
public final class Requirements {
  public static final String PRESENT = "Present";
  public static final String NOT_PRESENT = "NotPresent";
  public static final String NOT_AVAILABLE = "NotAvailable";
  public static final String PRESENT_NOT_SATISFIED = "PresentNotSatisfied";

  /** One entry of OLM's {@code status.requirementStatus}. */
  public record RequirementStatus(
      String group, String version, String kind, String name, String status, String message) {
    public boolean met() {
      return PRESENT.equals(status);
    }

    /** {@code Kind name: Status (message)}, for a status message. */
    public String describe() {
      return kind
          + " "
          + name
          + ": "
          + status
          + (message == null || message.isEmpty() ? "" : " (" + message + ")");
    }
  }

  /** A CRD as the cluster has it. */
  public record CrdState(Set<String> servedVersions, boolean established) {}

  /** What a CSV's requirements need read from the cluster. */
  public record Needs(boolean serverVersion, List<Gvk> apis, List<String> crds) {}

  /**
   * What the caller read.
   *
   * @param serverVersion the API server's {@code gitVersion} ({@code v1.31.0}), or null when it
   *     could not be read
   * @param servedApis the ones of {@link Needs#apis} discovery serves
   * @param crds the CRDs of {@link Needs#crds} that exist, by name
   */
  public record Facts(String serverVersion, Set<Gvk> servedApis, Map<String, CrdState> crds) {}

  private Requirements() {}

  /** What evaluating {@code csv} needs to know. */
  public static Needs needs(JsonNode csv) {
    JsonNode spec = csv.path("spec");
    Set<Gvk> apis = new LinkedHashSet<>();
    apis.addAll(gvks(spec.path("nativeAPIs")));
    apis.addAll(gvks(spec.path("apiservicedefinitions").path("required")));
    List<String> crds = new ArrayList<>();
    spec.path("customresourcedefinitions")
        .path("required")
        .forEach(r -> crds.add(r.path("name").asText()));
    return new Needs(!spec.path("minKubeVersion").asText("").isEmpty(), List.copyOf(apis), crds);
  }

  /** Every requirement of {@code csv} with its status, in OLM's order. */
  public static List<RequirementStatus> evaluate(JsonNode csv, Facts facts) {
    JsonNode spec = csv.path("spec");
    List<RequirementStatus> out = new ArrayList<>();
    String minKube = spec.path("minKubeVersion").asText("");
    if (!minKube.isEmpty()) {
      out.add(
          minKubeVersion(
              csv.path("metadata").path("name").asText(), minKube, facts.serverVersion()));
    }
    for (JsonNode required : spec.path("customresourcedefinitions").path("required")) {
      out.add(crd(required, facts.crds().get(required.path("name").asText())));
    }
    for (Gvk api : gvks(spec.path("apiservicedefinitions").path("required"))) {
      boolean served = facts.servedApis().contains(api);
      out.add(
          new RequirementStatus(
              "apiregistration.k8s.io",
              "v1",
              "APIService",
              api.version() + "." + api.group(),
              served ? PRESENT : NOT_PRESENT,
              served ? "" : "API " + apiVersion(api) + " " + api.kind() + " is not served"));
    }
    for (Gvk api : gvks(spec.path("nativeAPIs"))) {
      boolean served = facts.servedApis().contains(api);
      out.add(
          new RequirementStatus(
              api.group(),
              api.version(),
              api.kind(),
              api.version() + "." + api.group(),
              served ? PRESENT : NOT_PRESENT,
              served ? "Native API exists" : "Native API does not exist"));
    }
    return out;
  }

  /** The unmet ones of {@code statuses} described on one line, or empty when every one is met. */
  public static Optional<String> unmet(List<RequirementStatus> statuses) {
    String text =
        statuses.stream()
            .filter(s -> !s.met())
            .map(RequirementStatus::describe)
            .collect(Collectors.joining("; "));
    return text.isEmpty() ? Optional.empty() : Optional.of(text);
  }

  /**
   * {@code minKubeVersion} against the server's {@code gitVersion} as OLM compares them: semver,
   * the server's version without a leading {@code v} and cut at its first {@code -} ({@code
   * v1.31.0-simulated} is 1.31.0).
   */
  public static RequirementStatus minKubeVersion(
      String csvName, String minKubeVersion, String serverVersion) {
    String status = PRESENT_NOT_SATISFIED;
    String message;
    Optional<Version> server =
        serverVersion == null
            ? Optional.empty()
            : lenient(serverVersion.trim().replaceFirst("^v", "").split("-", 2)[0]);
    Optional<Version> min = lenient(minKubeVersion.trim().replaceFirst("^v", ""));
    if (serverVersion == null) {
      message = "Server version discovery error";
    } else if (server.isEmpty()) {
      message = "Server version parsing error";
    } else if (min.isEmpty()) {
      message = "CSV version parsing error";
    } else if (min.get().compareTo(server.get()) > 0) {
      message =
          "CSV version requirement not met: minKubeVersion ("
              + minKubeVersion
              + ") > server version ("
              + server.get()
              + ")";
    } else {
      status = PRESENT;
      message =
          "CSV minKubeVersion ("
              + minKubeVersion
              + ") less than server version ("
              + serverVersion
              + ")";
    }
    return new RequirementStatus(
        "operators.coreos.com", "v1alpha1", "ClusterServiceVersion", csvName, status, message);
  }

  private static RequirementStatus crd(JsonNode required, CrdState state) {
    String name = required.path("name").asText();
    String version = required.path("version").asText("");
    String status;
    String message;
    if (state == null) {
      status = NOT_PRESENT;
      message = "CRD is not present";
    } else if (!version.isEmpty() && !state.servedVersions().contains(version)) {
      status = NOT_PRESENT;
      message = "CRD version not served";
    } else if (!state.established()) {
      status = NOT_AVAILABLE;
      message = "CRD is present but the Established condition is False (not available)";
    } else {
      status = PRESENT;
      message = "CRD is present and Established condition is true";
    }
    return new RequirementStatus(
        "apiextensions.k8s.io", "v1", "CustomResourceDefinition", name, status, message);
  }

  /** A version as the Masterminds semver OLM uses reads it: a missing minor or patch is zero. */
  private static Optional<Version> lenient(String text) {
    Optional<Version> exact = Version.tryParse(text);
    if (exact.isPresent() || !text.matches("\\d+(\\.\\d+)?")) {
      return exact;
    }
    return Version.tryParse(text.contains(".") ? text + ".0" : text + ".0.0");
  }

  private static List<Gvk> gvks(JsonNode list) {
    List<Gvk> out = new ArrayList<>();
    for (JsonNode g : list) {
      out.add(
          new Gvk(
              g.path("group").asText(""), g.path("version").asText(""), g.path("kind").asText("")));
    }
    return out;
  }

  /** {@code group/version}, or {@code version} for the core group. */
  public static String apiVersion(Gvk api) {
    return api.group().isEmpty() ? api.version() : api.group() + "/" + api.version();
  }
}
