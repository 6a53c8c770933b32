package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;

/**
 * The shape check of an {@code olm.csv.metadata} value (the field types of operator-registry's
 * {@code property.CSVMetadata}; unknown fields pass). It streams tokens so that {@link
 * JsonBlobReader} can run it in place of skipping a value whose decoding it defers: validation then
 * needs no decoding. It runs on most of a catalog's bytes, so it allocates nothing unless it finds
 * a problem.
 */
final class CsvMetadataShape {

  /**
   * Which fields of an object are checked (compared by identity): all as strings, or none (content
   * skipped).
   */
  private static final String[] ALL = new String[0];

  private static final String[] NONE = new String[0];
  private static final String[] LINK = {"name", "url"};
  private static final String[] MAINTAINER = {"name", "email"};
  private static final String[] INSTALL_MODE = {"type"};

  private CsvMetadataShape() {}

  /** Checks a decoded value (YAML catalogs, or JSON whose value came before its type). */
  static String check(JsonNode value) {
    if (value == null || !value.isObject()) {
      return "value must be an object";
    }
    try (JsonParser p = value.traverse()) {
      p.nextToken();
      return check(p);
    } catch (IOException e) {
      return "cannot read value: " + e.getMessage(); // a tree never fails to traverse
    }
  }

  /** At a START_OBJECT: consumes the whole object and returns its first problem, or null. */
  static String check(JsonParser p) throws IOException {
    String problem = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken t = p.nextToken();
      String err =
          switch (name) {
            case "description", "displayName", "maturity", "minKubeVersion" ->
                isString(t, p) ? null : must(name, null, -1, "a string");
            case "annotations", "labels" -> object(name, -1, t, p, ALL, null);
            case "keywords" -> array(name, t, p, null, null);
            case "links" -> array(name, t, p, LINK, null);
            case "maintainers" -> array(name, t, p, MAINTAINER, null);
            case "provider" -> object(name, -1, t, p, LINK, null);
            case "installModes" -> array(name, t, p, INSTALL_MODE, "supported");
            case "apiServiceDefinitions", "crdDescriptions" -> object(name, -1, t, p, NONE, null);
            case "nativeAPIs" -> array(name, t, p, NONE, null);
            default -> skip(p);
          };
      if (problem == null) {
        problem = err;
      }
    }
    return problem;
  }

  /**
   * An object at {@code path} (or {@code path[index]} when index >= 0): {@code strings} lists its
   * string fields ({@link #ALL}, or {@link #NONE} to skip the content), {@code bool} names one
   * boolean field.
   */
  private static String object(
      String path, int index, JsonToken t, JsonParser p, String[] strings, String bool)
      throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.START_OBJECT) {
      skip(p);
      return must(path, null, index, "an object");
    }
    if (strings == NONE) {
      return skip(p);
    }
    String problem = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      JsonToken v = p.nextToken();
      if (strings == ALL) {
        // the hot path (annotations): no field name is read unless it is needed for the message
        if (v != JsonToken.VALUE_STRING && v != JsonToken.VALUE_NULL && problem == null) {
          problem = must(path, p.currentName(), index, "a string");
        }
        skip(p);
        continue;
      }
      String key = p.currentName();
      if (key.equals(bool)) {
        if (!isBoolean(v, p) && problem == null) {
          problem = must(path, key, index, "a boolean");
        }
      } else if (contains(strings, key)) {
        if (!isString(v, p) && problem == null) {
          problem = must(path, key, index, "a string");
        }
      } else {
        skip(p);
      }
    }
    return problem;
  }

  /** An array of strings ({@code strings} null) or of objects checked like {@link #object}. */
  private static String array(String path, JsonToken t, JsonParser p, String[] strings, String bool)
      throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.START_ARRAY) {
      skip(p);
      return must(path, null, -1, "an array");
    }
    String problem = null;
    JsonToken e;
    for (int i = 0; (e = p.nextToken()) != JsonToken.END_ARRAY && e != null; i++) {
      String err;
      if (strings == null) {
        err = isString(e, p) ? null : must(path, null, i, "a string");
      } else {
        err = object(path, i, e, p, strings, bool);
      }
      if (problem == null) {
        problem = err;
      }
    }
    return problem;
  }

  /** True for a string or null; anything else is skipped whole. */
  private static boolean isString(JsonToken t, JsonParser p) throws IOException {
    if (t == JsonToken.VALUE_STRING || t == JsonToken.VALUE_NULL) {
      return true;
    }
    p.skipChildren();
    return false;
  }

  private static boolean isBoolean(JsonToken t, JsonParser p) throws IOException {
    if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE || t == JsonToken.VALUE_NULL) {
      return true;
    }
    p.skipChildren();
    return false;
  }

  private static boolean contains(String[] names, String key) {
    for (String n : names) {
      if (n.equals(key)) {
        return true;
      }
    }
    return false;
  }

  /** The message, built only for a problem: {@code field "path[index].key" must be ...}. */
  private static String must(String path, String key, int index, String what) {
    return "field \""
        + path
        + (index >= 0 ? "[" + index + "]" : "")
        + (key == null ? "" : "." + key)
        + "\" must be "
        + what;
  }

  private static String skip(JsonParser p) throws IOException {
    p.skipChildren();
    return null;
  }
}
