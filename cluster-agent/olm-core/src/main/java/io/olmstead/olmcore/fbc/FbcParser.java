package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.olmstead.olmcore.tar.TarException;
import io.olmstead.olmcore.tar.TarFiles;
import io.olmstead.olmcore.tar.TarLimits;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads file-based catalogs: JSON object streams, JSON Lines, YAML multi-document streams,
 * directory trees (honouring {@code .indexignore}) and {@code .tar.gz} archives, within {@link
 * ParseLimits}. Like upstream, every file not ignored is part of the catalog. Thread-safe.
 */
public final class FbcParser {

  private static final String TAR_GZ = "<tar.gz>";

  private final ParseLimits limits;

  public FbcParser() {
    this(ParseLimits.defaults());
  }

  /** A parser within {@code limits} (the defaults when null). */
  public FbcParser(ParseLimits limits) {
    this.limits = limits == null ? ParseLimits.defaults() : limits;
  }

  public ParseLimits limits() {
    return limits;
  }

  /**
   * Parses one file; the format is chosen by extension ({@code .json/.jsonl} vs {@code
   * .yaml/.yml}), else by content.
   */
  public DeclarativeConfig parse(String fileName, byte[] content) throws FbcException {
    if (content == null) {
      throw new FbcException(fileName, 0, 0, "no catalog content given");
    }
    BlobDecoder decoder = new BlobDecoder(limits);
    if (content.length > limits.maxTotalBytes()) {
      throw new FbcException(
          fileName, 0, 0, "catalog exceeds the total size limit of " + limits.maxTotalBytes());
    }
    parseInto(fileName, content, decoder);
    return decoder.build();
  }

  /**
   * Parses a set of files keyed by relative path ({@code /}-separated), honouring {@code
   * .indexignore}.
   */
  public DeclarativeConfig parseFiles(Map<String, byte[]> files) throws FbcException {
    if (files == null) {
      throw new FbcException(null, 0, 0, "no catalog files given");
    }
    Map<String, byte[]> sorted = new TreeMap<>();
    long total = 0;
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      if (e.getKey() == null) {
        throw new FbcException(null, 0, 0, "a catalog file has no path");
      }
      String path = e.getKey().replace('\\', '/');
      while (path.startsWith("./")) {
        path = path.substring(2);
      }
      if (e.getValue() == null) {
        throw new FbcException(path, 0, 0, "no content given for this file");
      }
      total += e.getValue().length;
      if (total > limits.maxTotalBytes()) {
        throw new FbcException(
            path, 0, 0, "catalog exceeds the total size limit of " + limits.maxTotalBytes());
      }
      sorted.put(path, e.getValue());
    }
    IndexIgnore ignore = IndexIgnore.of(sorted);
    BlobDecoder decoder = new BlobDecoder(limits);
    for (Map.Entry<String, byte[]> e : sorted.entrySet()) {
      if (!ignore.ignored(e.getKey())) {
        parseInto(e.getKey(), e.getValue(), decoder);
      }
    }
    return decoder.build();
  }

  /**
   * Parses a tar of a catalog directory (gzip-compressed or plain), read by {@link TarFiles} like
   * an image layer: links inside the archive share their target's bytes and count its size again.
   */
  public DeclarativeConfig parseTarGz(byte[] tarGz) throws FbcException {
    if (tarGz == null) {
      throw new FbcException(TAR_GZ, 0, 0, "no archive given");
    }
    TarFiles files = new TarFiles(TarLimits.catalogArchive(limits.maxTotalBytes()), path -> true);
    try {
      files.apply(0, new ByteArrayInputStream(tarGz));
    } catch (TarException e) {
      throw new FbcException(TAR_GZ, 0, 0, "invalid tar.gz: " + e.getMessage(), e);
    }
    return parseFiles(files.files());
  }

  /** Parses a directory tree (symbolic links are not followed), honouring {@code .indexignore}. */
  public DeclarativeConfig parseDirectory(Path dir) throws FbcException {
    if (dir == null) {
      throw new FbcException(null, 0, 0, "no catalog directory given");
    }
    Map<String, byte[]> files = new TreeMap<>();
    long[] total = {0};
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              if (!attrs.isRegularFile()) {
                return FileVisitResult.CONTINUE;
              }
              String rel = dir.relativize(file).toString().replace('\\', '/');
              total[0] += attrs.size();
              if (total[0] > limits.maxTotalBytes()) {
                throw new LimitExceeded(rel);
              }
              files.put(rel, Files.readAllBytes(file));
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (LimitExceeded e) {
      throw new FbcException(
          e.getMessage(),
          0,
          0,
          "catalog exceeds the total size limit of " + limits.maxTotalBytes());
    } catch (IOException | RuntimeException e) {
      throw new FbcException(
          dir.toString(), 0, 0, "cannot read catalog directory: " + e.getMessage(), e);
    }
    return parseFiles(files);
  }

  private void parseInto(String file, byte[] content, BlobDecoder decoder) throws FbcException {
    try {
      if (isJson(file, content)) {
        parseJson(file, content, decoder);
      } else {
        parseYaml(file, content, decoder);
      }
    } catch (IOException e) {
      throw Mappers.toFbc(file, e);
    } catch (RuntimeException e) {
      // SnakeYAML/Jackson may signal limit violations unchecked; the public API must not leak them
      throw Mappers.toFbc(file, e);
    }
  }

  private static boolean isJson(String file, byte[] content) {
    String lower = file == null ? "" : file.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".json") || lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) {
      return true;
    }
    if (lower.endsWith(".yaml") || lower.endsWith(".yml")) {
      return false;
    }
    return Mappers.looksLikeJson(content, 0);
  }

  private void parseJson(String file, byte[] content, BlobDecoder decoder)
      throws IOException, FbcException {
    ObjectMapper mapper = Mappers.json(limits);
    JsonBlobReader reader = new JsonBlobReader(mapper, content);
    try (JsonParser p = mapper.getFactory().createParser(content)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        JsonLocation start = p.currentTokenLocation();
        if (t != JsonToken.START_OBJECT) {
          throw new FbcException(
              file,
              start.getLineNr(),
              start.getColumnNr(),
              "malformed catalog: expected a JSON object, found " + t.asString());
        }
        JsonNode blob = reader.read(p);
        checkBlobSize(file, start, p.currentLocation().getByteOffset() - start.getByteOffset());
        decoder.add(file, start.getLineNr(), start.getColumnNr(), blob);
      }
    }
  }

  private void parseYaml(String file, byte[] content, BlobDecoder decoder)
      throws IOException, FbcException {
    ObjectMapper mapper = Mappers.yaml(limits);
    try (YAMLParser p = (YAMLParser) mapper.getFactory().createParser(content)) {
      YamlTreeReader reader = new YamlTreeReader(p, file, limits);
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        JsonLocation start = p.currentTokenLocation();
        if (t == JsonToken.VALUE_NULL || t == JsonToken.VALUE_STRING && p.getText().isEmpty()) {
          continue; // an empty document between separators
        }
        JsonNode blob = reader.readDocument();
        checkBlobSize(file, start, p.currentLocation().getCharOffset() - start.getCharOffset());
        decoder.add(file, start.getLineNr(), start.getColumnNr(), blob);
      }
    }
  }

  private void checkBlobSize(String file, JsonLocation start, long size) throws FbcException {
    if (size > limits.maxBlobBytes()) {
      throw new FbcException(
          file,
          start.getLineNr(),
          start.getColumnNr(),
          "blob of " + size + " bytes exceeds the limit of " + limits.maxBlobBytes());
    }
  }

  /** Aborts a directory walk early when the size limit is hit. */
  private static final class LimitExceeded extends IOException {
    LimitExceeded(String path) {
      super(path);
    }
  }
}
