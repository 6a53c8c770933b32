package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.controlplane.clusters.LabelSelector;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The kinds {@code get} and {@code describe} know: their API path, their table columns, and what {@code -l} matches.
 * Clusters have labels and a server-side selector; subscriptions, rollouts and catalogs have none, so {@code -l}
 * matches some of their fields as if they were labels (listed in docs/cli.md), on the client.
 */
public enum Kind {
  clusters("/clusters", true, List.of("name", "status", "labels", "agent", "kubernetes", "last-seen", "age")),
  subscriptions("/subscriptions", false, List.of("name", "package", "catalog", "channel", "version", "approval",
      "clusters", "installed", "age")),
  rollouts("/rollouts", false, List.of("id", "subscription", "target", "state", "progress", "failed", "wave",
      "age")),
  catalogs("/catalogs", false, List.of("name", "revision", "digest", "priority", "source", "age"));

  final String path;
  final boolean serverSelector;
  final List<String> columns;

  Kind(String path, boolean serverSelector, List<String> columns) {
    this.path = path;
    this.serverSelector = serverSelector;
    this.columns = columns;
  }

  /** {@code cluster}, {@code clusters}, {@code sub}... to a kind; a usage error naming the choices otherwise. */
  public static Kind parse(String word) {
    String w = word.toLowerCase(Locale.ROOT);
    for (Kind kind : values()) {
      String singular = kind.name().substring(0, kind.name().length() - 1);
      if (w.equals(kind.name()) || w.equals(singular) || kind == subscriptions && (w.equals("sub") || w.equals("subs"))) {
        return kind;
      }
    }
    throw new CliException(ExitCodes.USAGE, "unknown kind '" + word + "': use clusters, subscriptions, rollouts or "
        + "catalogs");
  }

  /** What {@code -l} matches: a cluster's labels, or the fields documented for the other kinds. */
  public Map<String, String> labelsOf(JsonNode item) {
    Map<String, String> labels = new LinkedHashMap<>();
    switch (this) {
      case clusters -> item.path("labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
      case subscriptions -> {
        for (String field : List.of("name", "catalog", "package", "channel", "namespace", "approval", "team")) {
          putText(labels, field, item.path(field));
        }
      }
      case rollouts -> {
        for (String field : List.of("id", "subscription", "targetVersion", "state")) {
          putText(labels, field, item.path(field));
        }
      }
      case catalogs -> {
        putText(labels, "name", item.path("name"));
        putText(labels, "priority", item.path("priority"));
      }
      default -> throw new IllegalStateException();
    }
    return labels;
  }

  private static void putText(Map<String, String> labels, String key, JsonNode value) {
    if (!value.isMissingNode() && !value.isNull()) {
      labels.put(key, value.asText());
    }
  }

  /** Parses {@code -l} as the API does; a usage error naming the flag otherwise. */
  public static LabelSelector selector(String text) {
    try {
      return LabelSelector.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCodes.USAGE, "invalid -l selector '" + text + "': " + e.getMessage());
    }
  }

  /** The table row of one object ({@code extra}: the subscription's status totals, else null). */
  public List<String> row(JsonNode item, JsonNode extra, Instant now) {
    return switch (this) {
      case clusters -> List.of(text(item, "name"), text(item, "status"), labels(item.path("labels")),
          text(item, "agentVersion"), text(item, "kubernetesVersion"), age(item.path("lastSeen"), now),
          age(item.path("createdAt"), now));
      case subscriptions -> List.of(text(item, "name"), text(item, "package"), text(item, "catalog"),
          text(item, "channel"), policy(item.path("version")), text(item, "approval"),
          extra == null ? "" : extra.path("clusters").asText(), extra == null ? "" : counts(extra.path("byVersion")),
          age(item.path("createdAt"), now));
      case rollouts -> List.of(text(item, "id"), text(item, "subscription"), text(item, "targetVersion"),
          text(item, "state"), item.path("counts").path("succeeded").asInt() + "/"
              + item.path("counts").path("clusters").asInt(), item.path("counts").path("failed").asText("0"),
          currentWave(item), age(item.path("startedAt"), now));
      case catalogs -> List.of(text(item, "name"), text(item, "currentRevision"), shortDigest(item), text(item,
          "priority"), item.path("source").path("image").asText(""), age(item.path("createdAt"), now));
    };
  }

  static String text(JsonNode item, String field) {
    JsonNode value = item.path(field);
    return value.isMissingNode() || value.isNull() ? "" : value.asText();
  }

  static String labels(JsonNode labels) {
    List<String> parts = new ArrayList<>();
    new TreeMap<>(Api.JSON.convertValue(labels, Map.class)).forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(",", parts);
  }

  /** {@code pin 1.2.3}, {@code range >=1 <2}, {@code follow channel}. */
  static String policy(JsonNode version) {
    for (String kind : List.of("pin", "range", "follow")) {
      if (version.hasNonNull(kind)) {
        return kind + " " + version.get(kind).asText();
      }
    }
    return "";
  }

  /** {@code 0.9.2=3 0.9.4=1}, sorted by key. */
  static String counts(JsonNode byKey) {
    List<String> parts = new ArrayList<>();
    new TreeMap<String, Object>(Api.JSON.convertValue(byKey, Map.class)).forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(" ", parts);
  }

  /** The first wave not yet Succeeded (the one the rollout works on), or the last. */
  static String currentWave(JsonNode rollout) {
    String last = "";
    for (JsonNode wave : rollout.path("waves")) {
      last = wave.path("name").asText();
      if (!"Succeeded".equals(wave.path("state").asText())) {
        return last + " (" + wave.path("state").asText() + ")";
      }
    }
    return last;
  }

  private static String shortDigest(JsonNode catalog) {
    String digest = text(catalog, "currentDigest");
    return digest.startsWith("sha256:") && digest.length() > 19 ? digest.substring(0, 19) : digest;
  }

  /** kubectl's age: {@code 45s}, {@code 12m}, {@code 5h}, {@code 3d}. */
  static String age(JsonNode timestamp, Instant now) {
    if (!timestamp.isTextual()) {
      return "";
    }
    try {
      Duration d = Duration.between(Instant.parse(timestamp.asText()), now);
      long s = Math.max(0, d.getSeconds());
      return s < 120 ? s + "s" : s < 7200 ? s / 60 + "m" : s < 172_800 ? s / 3600 + "h" : s / 86_400 + "d";
    } catch (DateTimeParseException e) {
      return timestamp.asText();
    }
  }
}
