package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The saved login: the control plane's URL and an API token in {@code config.yaml}, readable by its owner only (0600).
 * {@code OLMSTEAD_URL} and {@code OLMSTEAD_TOKEN} override what is saved. The token is never printed.
 */
public record CliConfig(URI url, String token) {
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Set<PosixFilePermission> NOT_OWNER = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  @Override
  public String toString() {
    return "CliConfig[url=" + url + ", token=***]";
  }

  /** The URL and token to use; a {@link CliException} naming the missing setting or the unsafe file. */
  public static CliConfig load(CliContext ctx) {
    Path file = ctx.configFile();
    String url = ctx.env().get("OLMSTEAD_URL");
    String token = ctx.env().get("OLMSTEAD_TOKEN");
    if ((blank(url) || blank(token)) && Files.exists(file)) {
      Map<String, String> saved = read(file);
      url = blank(url) ? saved.get("url") : url;
      token = blank(token) ? saved.get("token") : token;
    }
    if (blank(url) || blank(token)) {
      throw new CliException(ExitCodes.AUTH, "not logged in (no " + (blank(url) ? "URL" : "token") + " in " + file
          + " nor OLMSTEAD_" + (blank(url) ? "URL" : "TOKEN") + "): run olmstead login --url URL --token-stdin");
    }
    return new CliConfig(parseUrl(url.strip()), token.strip());
  }

  /** An http(s) URL without a query; its path (if any) is where {@code /api/v1} lives. */
  public static URI parseUrl(String url) {
    try {
      URI uri = new URI(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null
          || uri.getQuery() != null) {
        throw new URISyntaxException(url, "not an http(s) URL with a host");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new CliException(ExitCodes.USAGE, "the URL '" + url + "' is not an http(s) URL such as "
          + "https://olmstead.example.com: pass a valid --url (or OLMSTEAD_URL)");
    }
  }

  static Map<String, String> read(Path file) {
    if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      try {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        if (permissions.stream().anyMatch(NOT_OWNER::contains)) {
          throw new CliException(ExitCodes.AUTH, file + " is accessible by other users (mode "
              + PosixFilePermissions.toString(permissions) + ") and holds a token: run chmod 600 " + file
              + " (and replace the token if others could read it)");
        }
      } catch (IOException e) {
        throw new CliException(ExitCodes.ERROR, "cannot read " + file + ": " + e.getMessage());
      }
    }
    try {
      JsonNode node = YAML.readTree(Files.readString(file, StandardCharsets.UTF_8));
      if (node == null || !node.isObject()) {
        throw new CliException(ExitCodes.USAGE, file + " is not a mapping of url and token: run olmstead login");
      }
      return Map.of("url", node.path("url").asText(""), "token", node.path("token").asText(""));
    } catch (IOException e) {
      throw new CliException(ExitCodes.USAGE, file + " is not valid YAML: run olmstead login to write it again");
    }
  }

  /** Writes the login to {@code file}, created 0600 (in a 0700 directory) and replaced atomically. */
  public static void save(Path file, URI url, String token) {
    try {
      Path dir = file.getParent();
      boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
      if (!Files.isDirectory(dir)) {
        if (posix) {
          Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
              "rwx------")));
        } else {
          Files.createDirectories(dir);
        }
      }
      Path tmp = dir.resolve(".config.yaml." + ProcessHandle.current().pid() + ".tmp");
      Files.deleteIfExists(tmp);
      if (posix) {
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } else {
        Files.createFile(tmp);
      }
      Files.writeString(tmp, YAML.writeValueAsString(ordered(url, token)),
          StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new CliException(ExitCodes.ERROR, "cannot write " + file + ": " + e.getMessage());
    }
  }

  private static Map<String, String> ordered(URI url, String token) {
    Map<String, String> map = new java.util.LinkedHashMap<>();
    map.put("url", url.toString());
    map.put("token", token);
    return map;
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
