package io.olmstead.controlplane.edgerisk;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The facts of a cluster that an edge's evidence is matched on (pure): its Kubernetes and OpenShift
 * versions to the minor ({@code 1.29}, {@code 4.16}), its platform (the HostedCluster's, or the
 * agent's {@code platform} fact) and the values of the labels the administrator names ({@code
 * OLMSTEAD_EDGE_RISK_LABELS}). Two clusters match when all of these are equal, an absent one equal
 * only to an absent one.
 */
public record EdgeFacts(SortedMap<String, String> values) {
  static final String KUBERNETES = "kubernetesVersion";
  static final String OPENSHIFT = "openshiftVersion";
  static final String PLATFORM = "platform";
  static final String LABEL = "label:";

  /**
   * The label the HyperShift watcher puts on a hosted cluster (hypershift.HostedLabels.PLATFORM).
   */
  static final String PLATFORM_LABEL = "hypershift.olmstead.io/platform";

  static final String VERSION_LABEL = "hypershift.olmstead.io/version";
  private static final Pattern MINOR = Pattern.compile("^v?(\\d+)\\.(\\d+)");

  public EdgeFacts {
    values = new TreeMap<>(values);
  }

  /** The facts of a cluster with these labels and stored facts ({@code clusters.facts}). */
  public static EdgeFacts of(
      Map<String, String> labels, JsonObject facts, List<String> namedLabels) {
    JsonObject f = facts == null ? new JsonObject() : facts;
    JsonObject hosted = f.getValue("hypershift") instanceof JsonObject h ? h : new JsonObject();
    SortedMap<String, String> out = new TreeMap<>();
    put(out, KUBERNETES, minor(string(f, "kubernetesVersion")));
    String openshift = minor(string(hosted, "desiredVersion"));
    openshift = openshift != null ? openshift : minor(string(f, "openshiftVersion"));
    openshift = openshift != null ? openshift : minor(labels.get(VERSION_LABEL));
    put(out, OPENSHIFT, openshift);
    String platform = labels.get(PLATFORM_LABEL);
    put(out, PLATFORM, platform != null ? platform : string(f, "platform"));
    for (String name : namedLabels) {
      put(out, LABEL + name, labels.get(name));
    }
    return new EdgeFacts(out);
  }

  /** The facts from their stored JSON ({@link #toJson}). */
  public static EdgeFacts fromJson(JsonObject json) {
    SortedMap<String, String> out = new TreeMap<>();
    json.forEach(
        e -> {
          if (e.getValue() instanceof JsonObject labels) {
            labels.forEach(
                l ->
                    put(
                        out,
                        LABEL + l.getKey(),
                        l.getValue() == null ? null : l.getValue().toString()));
          } else if (e.getValue() != null) {
            out.put(e.getKey(), e.getValue().toString());
          }
        });
    return new EdgeFacts(out);
  }

  /**
   * {@code {kubernetesVersion, openshiftVersion, platform, labels: {name: value}}}, absent facts
   * left out.
   */
  public JsonObject toJson() {
    JsonObject json = new JsonObject();
    JsonObject labels = new JsonObject();
    values.forEach(
        (k, v) -> {
          if (k.startsWith(LABEL)) {
            labels.put(k.substring(LABEL.length()), v);
          } else {
            json.put(k, v);
          }
        });
    return json.put("labels", labels);
  }

  /**
   * One line for a reason: {@code kubernetesVersion=1.29, fips=true} ({@code no facts known} when
   * empty).
   */
  public String describe() {
    if (values.isEmpty()) {
      return "no facts known";
    }
    StringBuilder out = new StringBuilder();
    values.forEach(
        (k, v) ->
            out.append(out.isEmpty() ? "" : ", ")
                .append(k.startsWith(LABEL) ? k.substring(LABEL.length()) : k)
                .append('=')
                .append(v));
    return out.toString();
  }

  /**
   * The id of the risk of taking {@code from -> to} of {@code pkg} on clusters with these facts:
   * the first 16 hex digits of a SHA-256 over all four, the same on every replica and for every
   * team.
   */
  public String riskId(String pkg, String from, String to) {
    StringBuilder text = new StringBuilder(pkg).append('\n').append(from).append('\n').append(to);
    values.forEach((k, v) -> text.append('\n').append(k).append('=').append(v));
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(text.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  static String minor(String version) {
    if (version == null) {
      return null;
    }
    Matcher m = MINOR.matcher(version.trim());
    return m.find() ? m.group(1) + "." + m.group(2) : null;
  }

  private static String string(JsonObject json, String key) {
    return json.getValue(key) instanceof String s && !s.isBlank() ? s : null;
  }

  private static void put(Map<String, String> out, String key, String value) {
    if (value != null) {
      out.put(key, value);
    }
  }
}
