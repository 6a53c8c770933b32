package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.controlplane.selector.LabelSelector;
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
 * The kinds {@code get} and {@code describe} know: their API path, their table columns, and what
 * {@code -l} matches. Clusters have labels and a server-side selector; subscriptions, rollouts and
 * catalogs have none, so {@code -l} matches some of their fields as if they were labels (listed in
 * docs/cli.md), on the client.
 */
public enum Kind {
  clusters(
      "/clusters",
      true,
      List.of("name", "status", "labels", "agent", "kubernetes", "last-seen", "age"),
      List.of("name", "status", "labels", "agent", "kubernetes", "openshift", "last-seen", "age")),
  subscriptions(
      "/subscriptions",
      false,
      List.of(
          "name",
          "package",
          "catalog",
          "channel",
          "version",
          "approval",
          "clusters",
          "installed",
          "age"),
      List.of(
          "name",
          "package",
          "catalog",
          "channel",
          "version",
          "approval",
          "namespace",
          "team",
          "clusters",
          "installed",
          "by-phase",
          "age")),
  rollouts(
      "/rollouts",
      false,
      List.of(
          "id", "subscription", "target", "state", "progress", "failed", "blocked", "wave", "age"),
      List.of(
          "id",
          "subscription",
          "from",
          "target",
          "state",
          "progress",
          "failed",
          "blocked",
          "rolled-back",
          "wave",
          "age")),
  catalogs(
      "/catalogs",
      false,
      List.of("name", "revision", "digest", "priority", "source", "age"),
      List.of("name", "revision", "digest", "priority", "source", "last-error", "age"));

  /**
   * Widest cell of a name column in {@code table} output ({@code wide} and {@code name} print names
   * whole).
   */
  static final int NAME_WIDTH = 40;

  /** Widest LABELS cell in {@code table} output. */
  static final int LABELS_WIDTH = 48;

  final String path;
  final boolean serverSelector;
  final List<String> columns;
  final List<String> wideColumns;

  Kind(String path, boolean serverSelector, List<String> columns, List<String> wideColumns) {
    this.path = path;
    this.serverSelector = serverSelector;
    this.columns = columns;
    this.wideColumns = wideColumns;
  }

  /** The columns of {@code table} or {@code wide} output. */
  List<String> columns(Output output) {
    return output == Output.wide ? wideColumns : columns;
  }

  /**
   * {@code cluster}, {@code subscription}...: the word {@code -o name} and {@code delete} print.
   */
  String singular() {
    return name().substring(0, name().length() - 1);
  }

  /**
   * The API path of the object named {@code name} (a rollout's id), once the name is one the API
   * can take ({@link ArgumentNames}).
   */
  String pathOf(String name) {
    return path
        + "/"
        + Api.seg(
            this == rollouts
                ? ArgumentNames.rolloutId(name)
                : ArgumentNames.name(singular(), name));
  }

  /** The object's name ({@code id} for a rollout). */
  String nameOf(JsonNode item) {
    return text(item, this == rollouts ? "id" : "name");
  }

  /**
   * {@code cluster}, {@code clusters}, {@code sub}... to a kind; a usage error naming the choices
   * otherwise.
   */
  public static Kind parse(String word) {
    String w = word.toLowerCase(Locale.ROOT);
    for (Kind kind : values()) {
      String singular = kind.name().substring(0, kind.name().length() - 1);
      if (w.equals(kind.name())
          || w.equals(singular)
          || kind == subscriptions && (w.equals("sub") || w.equals("subs"))) {
        return kind;
      }
    }
    throw new CliException(
        ExitCodes.USAGE,
        "unknown kind '" + word + "': use clusters, subscriptions, rollouts or " + "catalogs");
  }

  /** What {@code -l} matches: a cluster's labels, or the fields documented for the other kinds. */
  public Map<String, String> labelsOf(JsonNode item) {
    Map<String, String> labels = new LinkedHashMap<>();
    switch (this) {
      case clusters ->
          item.path("labels")
              .fields()
              .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
      case subscriptions -> {
        for (String field :
            List.of("name", "catalog", "package", "channel", "namespace", "approval", "team")) {
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
      throw new CliException(
          ExitCodes.USAGE, "invalid -l selector '" + text + "': " + e.getMessage());
    }
  }

  /** The table row of one object ({@code extra}: the subscription's status totals, else null). */
  public List<String> row(JsonNode item, JsonNode extra, Instant now) {
    return row(item, extra, now, Output.table);
  }

  /**
   * The row of one object in {@code table} (long names and label lists cut) or {@code wide}
   * (everything whole).
   */
  public List<String> row(JsonNode item, JsonNode extra, Instant now, Output output) {
    boolean wide = output == Output.wide;
    String name = wide ? nameOf(item) : Output.fit(nameOf(item), NAME_WIDTH);
    return switch (this) {
      case clusters ->
          wide
              ? List.of(
                  name,
                  text(item, "status"),
                  labels(item.path("labels")),
                  text(item, "agentVersion"),
                  text(item, "kubernetesVersion"),
                  openshift(item),
                  age(item.path("lastSeen"), now),
                  age(item.path("createdAt"), now))
              : List.of(
                  name,
                  text(item, "status"),
                  Output.cut(labels(item.path("labels")), LABELS_WIDTH),
                  text(item, "agentVersion"),
                  text(item, "kubernetesVersion"),
                  age(item.path("lastSeen"), now),
                  age(item.path("createdAt"), now));
      case subscriptions -> {
        String clusterCount = extra == null ? "" : extra.path("clusters").asText();
        String installed = extra == null ? "" : counts(extra.path("byVersion"));
        yield wide
            ? List.of(
                name,
                text(item, "package"),
                text(item, "catalog"),
                text(item, "channel"),
                policy(item.path("version")),
                text(item, "approval"),
                text(item, "namespace"),
                text(item, "team"),
                clusterCount,
                installed,
                extra == null ? "" : counts(extra.path("byPhase")),
                age(item.path("createdAt"), now))
            : List.of(
                name,
                text(item, "package"),
                text(item, "catalog"),
                text(item, "channel"),
                policy(item.path("version")),
                text(item, "approval"),
                clusterCount,
                installed,
                age(item.path("createdAt"), now));
      }
      case rollouts -> {
        JsonNode counts = item.path("counts");
        String progress = counts.path("succeeded").asInt() + "/" + counts.path("clusters").asInt();
        String failed = String.valueOf(counts.path("failed").asInt());
        String blocked = String.valueOf(counts.path("blocked").asInt());
        yield wide
            ? List.of(
                name,
                text(item, "subscription"),
                joined(item.path("fromVersions")),
                text(item, "targetVersion"),
                text(item, "state"),
                progress,
                failed,
                blocked,
                String.valueOf(counts.path("rolledBack").asInt()),
                currentWave(item),
                age(item.path("startedAt"), now))
            : List.of(
                name,
                text(item, "subscription"),
                text(item, "targetVersion"),
                text(item, "state"),
                progress,
                failed,
                blocked,
                currentWave(item),
                age(item.path("startedAt"), now));
      }
      case catalogs ->
          wide
              ? List.of(
                  name,
                  text(item, "currentRevision"),
                  text(item, "currentDigest"),
                  text(item, "priority"),
                  item.path("source").path("image").asText(""),
                  text(item, "lastError"),
                  age(item.path("createdAt"), now))
              : List.of(
                  name,
                  text(item, "currentRevision"),
                  shortDigest(item),
                  text(item, "priority"),
                  Output.fit(item.path("source").path("image").asText(""), NAME_WIDTH),
                  age(item.path("createdAt"), now));
    };
  }

  /**
   * The OpenShift version of a hosted cluster (its {@code hypershift.olmstead.io/version} label),
   * else empty.
   */
  static String openshift(JsonNode cluster) {
    return cluster.path("labels").path("hypershift.olmstead.io/version").asText("");
  }

  static String joined(JsonNode array) {
    List<String> parts = new ArrayList<>();
    array.forEach(v -> parts.add(v.asText()));
    return String.join(",", parts);
  }

  static String text(JsonNode item, String field) {
    JsonNode value = item.path(field);
    return value.isMissingNode() || value.isNull() ? "" : value.asText();
  }

  static String labels(JsonNode labels) {
    List<String> parts = new ArrayList<>();
    new TreeMap<>(Api.JSON.convertValue(labels, Map.class))
        .forEach((k, v) -> parts.add(k + "=" + v));
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
    new TreeMap<String, Object>(Api.JSON.convertValue(byKey, Map.class))
        .forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(" ", parts);
  }

  /**
   * The first wave not yet Succeeded (the one the rollout works on), or the last; once the rollout
   * is RolledBack, the last wave that opened, as RolledBack (its clusters were sent back), as the
   * dashboard shows it.
   */
  static String currentWave(JsonNode rollout) {
    String last = "";
    String lastOpened = null;
    boolean rolledBack = "RolledBack".equals(rollout.path("state").asText());
    for (JsonNode wave : rollout.path("waves")) {
      last = wave.path("name").asText();
      String state = RolloutView.waveState(rollout, wave);
      if (state.equals("RolledBack")) {
        lastOpened = last;
      } else if (!rolledBack && !"Succeeded".equals(state)) {
        return last + " (" + state + ")";
      }
    }
    return lastOpened != null ? lastOpened + " (RolledBack)" : last;
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
      return s < 120
          ? s + "s"
          : s < 7200 ? s / 60 + "m" : s < 172_800 ? s / 3600 + "h" : s / 86_400 + "d";
    } catch (DateTimeParseException e) {
      return timestamp.asText();
    }
  }
}
