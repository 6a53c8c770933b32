package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/** Shared, configured Jackson mappers (thread-safe once built). */
final class Mappers {

  private static final Map<ParseLimits, ObjectMapper> YAML = new ConcurrentHashMap<>();
  private static final Map<ParseLimits, ObjectMapper> JSONS = new ConcurrentHashMap<>();

  static final ObjectMapper JSON = json(ParseLimits.defaults());

  private Mappers() {}

  static ObjectMapper json(ParseLimits limits) {
    if (JSONS.size() > 16) {
      JSONS.clear();
    }
    return JSONS.computeIfAbsent(
        limits,
        l -> {
          JsonMapper m = JsonMapper.builder().build();
          m.getFactory().setStreamReadConstraints(constraints(l));
          return m;
        });
  }

  /**
   * A YAML mapper whose SnakeYAML loader rejects alias bombs, deep nesting, huge documents and
   * duplicate keys.
   */
  static ObjectMapper yaml(ParseLimits limits) {
    if (YAML.size() > 16) {
      YAML.clear();
    }
    return YAML.computeIfAbsent(
        limits,
        l -> {
          LoaderOptions options = new LoaderOptions();
          options.setMaxAliasesForCollections(l.maxYamlAliases());
          options.setNestingDepthLimit(l.maxNestingDepth());
          options.setCodePointLimit((int) Math.min(Integer.MAX_VALUE, l.maxTotalBytes()));
          options.setAllowDuplicateKeys(false);
          YAMLFactory factory =
              YAMLFactory.builder()
                  .loaderOptions(options)
                  .streamReadConstraints(constraints(l))
                  .build();
          // No timestamp/date resolution happens in Jackson's YAML tree model: scalars stay text.
          return new YAMLMapper(factory);
        });
  }

  private static StreamReadConstraints constraints(ParseLimits l) {
    return StreamReadConstraints.builder()
        .maxNestingDepth(l.maxNestingDepth())
        .maxStringLength((int) Math.min(Integer.MAX_VALUE, l.maxBlobBytes()))
        .maxDocumentLength(l.maxTotalBytes())
        .build();
  }

  static boolean looksLikeJson(byte[] b, int from) {
    for (int i = from; i < b.length; i++) {
      byte c = b[i];
      if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
        continue;
      }
      if (c == (byte) 0xEF
          && i + 2 < b.length
          && b[i + 1] == (byte) 0xBB
          && b[i + 2] == (byte) 0xBF) {
        i += 2;
        continue;
      }
      return c == '{' || c == '[';
    }
    return false;
  }

  /** Maps a Jackson/SnakeYAML failure to an FbcException carrying line and column. */
  static FbcException toFbc(String file, Exception e) {
    int line = 0;
    int col = 0;
    String msg = e.getMessage();
    if (e instanceof JsonProcessingException jpe) {
      JsonLocation loc = jpe.getLocation();
      if (loc != null) {
        line = Math.max(0, loc.getLineNr());
        col = Math.max(0, loc.getColumnNr());
      }
      msg = jpe.getOriginalMessage();
    } else if (e instanceof MarkedYAMLException my && my.getProblemMark() != null) {
      line = my.getProblemMark().getLine() + 1;
      col = my.getProblemMark().getColumn() + 1;
      msg = my.getProblem();
    }
    return new FbcException(
        file, line, col, "malformed catalog: " + (msg == null ? e.toString() : msg), e);
  }

  static FbcException toFbc(String file, IOException e) {
    return toFbc(file, (Exception) e);
  }
}
