package io.olmstead.controlplane.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How upgrade edges that failed are remembered and weighed: {@code OLMSTEAD_EDGE_RISK_LABELS}
 * (comma-separated label keys whose values are facts clusters are matched on, e.g. {@code
 * fips,region}; default none), {@code OLMSTEAD_EDGE_RISK_MAX_PER_EDGE} (clusters remembered per
 * team and edge, default 500), {@code OLMSTEAD_EDGE_RISK_MAX_PER_TEAM} (rows per team over all
 * edges, default 5000), {@code OLMSTEAD_EDGE_RISK_HALF_LIFE_DAYS} (default 14) and {@code
 * OLMSTEAD_EDGE_RISK_SUCCESSES_PER_FAILURE} (default 10).
 */
public record EdgeRiskSettings(
    List<String> labels,
    int maxPerEdge,
    int maxPerTeam,
    int halfLifeDays,
    int successesPerFailure) {
  public static final String LABELS = "OLMSTEAD_EDGE_RISK_LABELS";
  public static final String MAX_PER_EDGE = "OLMSTEAD_EDGE_RISK_MAX_PER_EDGE";
  public static final String MAX_PER_TEAM = "OLMSTEAD_EDGE_RISK_MAX_PER_TEAM";
  public static final String HALF_LIFE = "OLMSTEAD_EDGE_RISK_HALF_LIFE_DAYS";
  public static final String SUCCESSES_PER_FAILURE = "OLMSTEAD_EDGE_RISK_SUCCESSES_PER_FAILURE";
  public static final Set<String> ENVIRONMENT =
      Set.of(LABELS, MAX_PER_EDGE, MAX_PER_TEAM, HALF_LIFE, SUCCESSES_PER_FAILURE);
  public static final EdgeRiskSettings DEFAULT = new EdgeRiskSettings(List.of(), 500, 5000, 14, 10);
  // a label key as Kubernetes spells it (optional DNS prefix, then a name)
  private static final Pattern KEY =
      Pattern.compile(
          "^([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$");

  public EdgeRiskSettings {
    labels = List.copyOf(labels);
  }

  public static EdgeRiskSettings fromEnvironment(Map<String, String> environment) {
    EnvReader env = new EnvReader(environment);
    List<String> labels = new ArrayList<>();
    for (String key : env.string(LABELS).orElse("").split(",")) {
      String k = key.trim();
      if (k.isEmpty()) {
        continue;
      }
      if (!KEY.matcher(k).matches()) {
        throw new ConfigException(LABELS, "'" + k + "' is not a label key");
      }
      if (!labels.contains(k)) {
        labels.add(k);
      }
    }
    if (labels.size() > 16) {
      throw new ConfigException(LABELS, "names " + labels.size() + " labels (at most 16)");
    }
    return new EdgeRiskSettings(
        labels,
        env.positiveInt(MAX_PER_EDGE, 500),
        env.positiveInt(MAX_PER_TEAM, 5000),
        env.positiveInt(HALF_LIFE, 14),
        env.positiveInt(SUCCESSES_PER_FAILURE, 10));
  }
}
