package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * The files {@code apply -f} reads: YAML documents {@code kind: Catalog|Subscription|Rollout},
 * {@code name}, {@code spec} (the REST body). Parsing is pure and all-or-nothing: one bad document
 * stops the apply before any request, with one line naming the file and line.
 */
final class ApplyDocuments {
  /** How many documents one apply reads at most. */
  static final int MAX_DOCUMENTS = 1000;

  static final long MAX_FILE_BYTES = 4L * 1024 * 1024;
  static final List<String> KINDS = List.of("Catalog", "Subscription", "Rollout");
  private static final YAMLMapper YAML = new YAMLMapper();

  /** One document: where it is, and what it asks for. */
  record Doc(String file, int line, String kind, String name, ObjectNode spec) {
    /** {@code subscription/etcd}, or {@code rollout etcd -> 0.9.4} (rollouts have server ids). */
    String label() {
      return kind.equals("Rollout")
          ? "rollout "
              + spec.path("subscription").asText()
              + " -> "
              + spec.path("targetVersion").asText()
          : kind.toLowerCase(Locale.ROOT) + "/" + name;
    }
  }

  private ApplyDocuments() {}

  /**
   * The YAML files of {@code path}: itself, or a directory's {@code *.yaml} / {@code *.yml}
   * (recursively, sorted).
   */
  static List<Path> files(Path path) {
    if (!Files.exists(path)) {
      throw new CliException(ExitCodes.USAGE, path + ": no such file or directory");
    }
    if (!Files.isDirectory(path)) {
      return List.of(path);
    }
    try (Stream<Path> walk = Files.walk(path, 8)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
          .sorted(Comparator.comparing(Path::toString))
          .toList();
    } catch (IOException e) {
      throw new CliException(ExitCodes.ERROR, "cannot read " + path + ": " + e.getMessage());
    }
  }

  /**
   * Every document of every file, in file order; a {@link CliException} (exit 2) at the first bad
   * one.
   */
  static List<Doc> read(List<Path> files) {
    List<Doc> docs = new ArrayList<>();
    for (Path file : files) {
      try {
        if (Files.size(file) > MAX_FILE_BYTES) {
          throw new CliException(
              ExitCodes.USAGE,
              file + ": larger than " + MAX_FILE_BYTES / (1024 * 1024) + " MiB; split it");
        }
        docs.addAll(parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new CliException(ExitCodes.ERROR, "cannot read " + file + ": " + e.getMessage());
      }
      if (docs.size() > MAX_DOCUMENTS) {
        throw new CliException(
            ExitCodes.USAGE, "more than " + MAX_DOCUMENTS + " documents: apply them in parts");
      }
    }
    return docs;
  }

  /** The documents of one file's text ({@code file} names it in errors). */
  static List<Doc> parse(String file, String text) {
    List<Doc> docs = new ArrayList<>();
    try (JsonParser parser = new NoAliases(new YAMLFactory().createParser(text), file)) {
      parser.setCodec(YAML);
      JsonToken token;
      while ((token = parser.nextToken()) != null) {
        int line = parser.currentLocation().getLineNr();
        if (token == JsonToken.VALUE_NULL) {
          continue; // an empty document (a stray ---)
        }
        if (token != JsonToken.START_OBJECT) {
          throw bad(file, line, "a document must be a mapping with kind, name and spec");
        }
        docs.add(doc(file, line, parser.readValueAsTree()));
      }
    } catch (JsonProcessingException e) {
      throw malformed(file, e);
    } catch (IOException e) {
      throw new CliException(ExitCodes.ERROR, "cannot read " + file + ": " + e.getMessage());
    }
    return docs;
  }

  private static Doc doc(String file, int line, JsonNode node) {
    String kind = node.path("kind").asText("");
    if (!KINDS.contains(kind)) {
      throw bad(
          file,
          line,
          (kind.isEmpty() ? "no kind" : "unknown kind '" + kind + "'")
              + ": use Catalog, Subscription or Rollout");
    }
    List<String> unknown = new ArrayList<>();
    node.fieldNames()
        .forEachRemaining(
            f -> {
              if (!List.of("kind", "name", "spec").contains(f)) {
                unknown.add(f);
              }
            });
    if (!unknown.isEmpty()) {
      throw bad(
          file, line, "unknown field(s) " + unknown + ": a document has only kind, name and spec");
    }
    String name = node.path("name").isTextual() ? node.path("name").asText() : null;
    if (name == null && !kind.equals("Rollout")) {
      throw bad(file, line, kind + " without a name");
    }
    JsonNode spec = node.path("spec");
    if (!spec.isObject()) {
      throw bad(
          file, line, kind + " " + (name == null ? "" : name + " ") + "without a spec mapping");
    }
    if (kind.equals("Rollout")
        && !(spec.path("subscription").isTextual() && spec.path("targetVersion").isTextual())) {
      throw bad(file, line, "Rollout spec needs subscription and targetVersion");
    }
    return new Doc(file, line, kind, name, (ObjectNode) spec);
  }

  private static CliException malformed(String file, JsonProcessingException e) {
    int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
    String problem = e.getOriginalMessage();
    if (e.getCause() instanceof MarkedYAMLException marked) {
      problem =
          marked.getProblem() + (marked.getContext() == null ? "" : " " + marked.getContext());
      if (marked.getProblemMark() != null) {
        line = marked.getProblemMark().getLine() + 1;
      }
    }
    return bad(file, line, "malformed YAML: " + problem.lines().findFirst().orElse("").strip());
  }

  /**
   * Jackson reads an alias ({@code *base}) as the text of its anchor's name, so {@code displayName:
   * *name} would apply the string "name" without a word; refusing aliases also keeps "billion
   * laughs" documents out.
   */
  private static final class NoAliases extends JsonParserDelegate {
    private final String file;

    NoAliases(JsonParser yaml, String file) {
      super(yaml);
      this.file = file;
    }

    @Override
    public JsonToken nextToken() throws IOException {
      JsonToken token = super.nextToken();
      if (delegate() instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
        throw bad(
            file,
            currentLocation().getLineNr(),
            "YAML aliases (*" + getText() + ") are not supported: write the value out");
      }
      return token;
    }
  }

  private static CliException bad(String file, int line, String message) {
    return new CliException(ExitCodes.USAGE, file + (line > 0 ? ":" + line : "") + ": " + message);
  }
}
