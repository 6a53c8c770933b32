package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The config file: named contexts, each a control plane's URL and the file holding its token, and
 * the current one (kubectl's kubeconfig, with tokens kept in their own 0600 files so the config can
 * be shown and shared). The file of earlier versions (one {@code url} and {@code token} in {@code
 * config.yaml}) reads as one context {@code default}.
 */
record ContextsFile(String current, List<Context> contexts) {
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");
  private static final Set<PosixFilePermission> NOT_OWNER =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);

  /**
   * One context: a name, the URL, and the token's file (or, in a file of earlier versions, the
   * token itself).
   */
  record Context(String name, URI url, Path tokenFile, String inlineToken) {
    @Override
    public String toString() {
      return "Context[name=" + name + ", url=" + url + ", tokenFile=" + tokenFile + "]";
    }

    /** The token, read from its file (which must be readable by its owner only). */
    String token(Path configFile) {
      if (inlineToken != null) {
        // a token in the file itself (the login file of earlier versions is checked when read)
        if (Files.exists(configFile)) {
          ownerOnly(configFile);
        }
        return inlineToken;
      }
      if (tokenFile == null) {
        throw new CliException(
            ExitCodes.AUTH,
            "context '"
                + name
                + "' in "
                + configFile
                + " names no token file: "
                + "run olmstead login --context "
                + name
                + " --url "
                + url
                + " --token-stdin");
      }
      if (!Files.isRegularFile(tokenFile)) {
        throw new CliException(
            ExitCodes.AUTH,
            "the token file "
                + tokenFile
                + " of context '"
                + name
                + "' does not exist: run olmstead login --context "
                + name
                + " --url "
                + url
                + " --token-stdin");
      }
      ownerOnly(tokenFile);
      try {
        return Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
      } catch (IOException e) {
        throw new CliException(ExitCodes.ERROR, "cannot read " + tokenFile + ": " + e.getMessage());
      }
    }
  }

  static ContextsFile empty() {
    return new ContextsFile(null, List.of());
  }

  /** A usage error unless {@code name} may name a context (and its token file). */
  static String checkName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new CliException(
          ExitCodes.USAGE,
          "the context name '"
              + name
              + "' must be 1-63 letters, digits, '.', "
              + "'_' or '-', starting with a letter or digit");
    }
    return name;
  }

  /**
   * The contexts of {@code ctx}'s config file; of the older {@code config.yaml} when there is none;
   * else none.
   */
  static ContextsFile read(CliContext ctx) {
    Path file = ctx.configFile();
    if (Files.exists(file)) {
      return parse(file, tree(file));
    }
    Path legacy = ctx.legacyConfigFile();
    if (ctx.env().get("OLMSTEAD_CONFIG") == null && Files.exists(legacy)) {
      ownerOnly(legacy);
      JsonNode node = tree(legacy);
      return new ContextsFile(
          "default",
          List.of(
              new Context(
                  "default",
                  CliConfig.parseUrl(node.path("url").asText("")),
                  null,
                  node.path("token").asText(""))));
    }
    return empty();
  }

  private static JsonNode tree(Path file) {
    try {
      JsonNode node = YAML.readTree(Files.readString(file, StandardCharsets.UTF_8));
      if (node == null || !node.isObject()) {
        throw new CliException(
            ExitCodes.USAGE,
            file
                + " is not a mapping (current-context, contexts): run "
                + "olmstead login to write it again");
      }
      return node;
    } catch (IOException e) {
      throw new CliException(
          ExitCodes.USAGE, file + " is not valid YAML: run olmstead login to write it again");
    }
  }

  private static ContextsFile parse(Path file, JsonNode node) {
    List<Context> contexts = new ArrayList<>();
    for (JsonNode c : node.path("contexts")) {
      String tokenFile = c.path("token-file").asText(null);
      String inline = c.path("token").asText(null);
      contexts.add(
          new Context(
              c.path("name").asText(""),
              CliConfig.parseUrl(c.path("url").asText("")),
              tokenFile == null
                  ? null
                  : file.toAbsolutePath().getParent().resolve(expandHome(tokenFile)),
              inline));
    }
    return new ContextsFile(node.path("current-context").asText(null), List.copyOf(contexts));
  }

  private static String expandHome(String path) {
    return path.startsWith("~/") ? System.getProperty("user.home") + path.substring(1) : path;
  }

  Optional<Context> find(String name) {
    return contexts.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /** This file with {@code context} added or replacing the one of its name. */
  ContextsFile with(Context context) {
    List<Context> list =
        new ArrayList<>(contexts.stream().filter(c -> !c.name().equals(context.name())).toList());
    list.add(context);
    return new ContextsFile(current, List.copyOf(list));
  }

  ContextsFile without(String name) {
    return new ContextsFile(
        name.equals(current) ? null : current,
        contexts.stream().filter(c -> !c.name().equals(name)).toList());
  }

  ContextsFile use(String name) {
    return new ContextsFile(name, contexts);
  }

  /**
   * Writes the file (0600, its directory 0700), replaced atomically; inline tokens of older files
   * are kept.
   */
  void write(Path file) {
    ObjectNode root = YAML.createObjectNode();
    if (current != null) {
      root.put("current-context", current);
    }
    ArrayNode list = root.putArray("contexts");
    for (Context c : contexts) {
      ObjectNode node = list.addObject().put("name", c.name()).put("url", c.url().toString());
      if (c.tokenFile() != null) {
        node.put("token-file", c.tokenFile().toString());
      } else if (c.inlineToken() != null) {
        node.put("token", c.inlineToken());
      }
    }
    try {
      writeOwnerOnly(file, YAML.writeValueAsString(root));
    } catch (IOException e) {
      throw new CliException(ExitCodes.ERROR, "cannot write " + file + ": " + e.getMessage());
    }
  }

  /**
   * Writes {@code text} to {@code file}, created 0600 in a 0700 directory and moved into place
   * atomically.
   */
  static void writeOwnerOnly(Path file, String text) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    if (!Files.isDirectory(dir)) {
      if (posix) {
        Files.createDirectories(
            dir,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } else {
        Files.createDirectories(dir);
      }
    }
    Path tmp = dir.resolve("." + file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
    Files.deleteIfExists(tmp);
    if (posix) {
      Files.createFile(
          tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } else {
      Files.createFile(tmp);
    }
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Refuses a file holding a token that group or others may access, naming the file and the fix.
   */
  static void ownerOnly(Path file) {
    if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      return;
    }
    try {
      Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
      if (permissions.stream().anyMatch(NOT_OWNER::contains)) {
        throw new CliException(
            ExitCodes.AUTH,
            file
                + " is accessible by other users (mode "
                + PosixFilePermissions.toString(permissions)
                + ") and holds a token: run chmod 600 "
                + file
                + " (and replace the token if others could read it)");
      }
    } catch (IOException e) {
      throw new CliException(ExitCodes.ERROR, "cannot read " + file + ": " + e.getMessage());
    }
  }
}
