package io.olmstead.controlplane.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Source prefix → mirror prefixes, as in an ImageDigestMirrorSet, for disconnected sites. The
 * longest matching source wins; its mirrors are tried in order, then the source itself (OpenShift's
 * default {@code AllowContactingSource}). File: {@code imageDigestMirrors: [{source: quay.io/org,
 * mirrors: [mirror:5000/org]}]} (YAML or JSON), or a whole ImageDigestMirrorSet object (the same
 * list under {@code spec}).
 */
public record MirrorRules(List<Rule> rules) {

  public static final MirrorRules NONE = new MirrorRules(List.of());

  /** One source prefix and its mirrors. */
  public record Rule(String source, List<String> mirrors) {
    public Rule {
      mirrors = List.copyOf(mirrors);
    }
  }

  public MirrorRules {
    rules =
        rules.stream()
            .sorted(Comparator.comparingInt((Rule r) -> r.source().length()).reversed())
            .toList();
  }

  public int size() {
    return rules.size();
  }

  /**
   * The references to try for {@code reference} (registry/repository[:tag][@digest]), mirrors
   * first.
   */
  public List<String> candidates(String reference) {
    List<String> out = new ArrayList<>();
    for (Rule rule : rules) {
      if (matches(reference, rule.source())) {
        for (String mirror : rule.mirrors()) {
          out.add(mirror + reference.substring(rule.source().length()));
        }
        break;
      }
    }
    out.add(reference);
    return out;
  }

  private static boolean matches(String reference, String source) {
    if (!reference.startsWith(source)) {
      return false;
    }
    if (reference.length() == source.length()) {
      return true;
    }
    char next = reference.charAt(source.length());
    return next == '/' || next == ':' || next == '@';
  }

  /** Reads the mirrors file; a bad file stops the start with a message naming {@code setting}. */
  public static MirrorRules read(String setting, Path file) {
    JsonNode root;
    try {
      root = new ObjectMapper(new YAMLFactory()).readTree(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new ConfigException(setting, "cannot read '" + file + "': " + e.getMessage());
    }
    if (root != null && root.has("spec")) {
      root = root.get("spec");
    }
    JsonNode list = root == null ? null : root.get("imageDigestMirrors");
    if (list == null || !list.isArray()) {
      throw new ConfigException(setting, "'" + file + "' has no imageDigestMirrors list");
    }
    List<Rule> rules = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode item = list.get(i);
      String source = item.path("source").asText("");
      JsonNode mirrors = item.path("mirrors");
      if (source.isBlank() || !mirrors.isArray() || mirrors.isEmpty()) {
        throw new ConfigException(
            setting, "imageDigestMirrors[" + i + "] needs a source and at least one mirror");
      }
      List<String> ms = new ArrayList<>();
      mirrors.forEach(m -> ms.add(m.asText()));
      rules.add(new Rule(source, ms));
    }
    return new MirrorRules(rules);
  }
}
