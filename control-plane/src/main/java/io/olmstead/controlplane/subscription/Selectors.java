package io.olmstead.controlplane.subscription;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Kubernetes label selectors ({@code env=prod,region in (eu,us),!canary}) compiled to predicates, with a small
 * cache because placement evaluates the same few selectors against thousands of clusters.
 */
final class Selectors {
  private static final int CACHE_SIZE = 1024;
  private static final Map<String, Predicate<Map<String, String>>> CACHE = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Predicate<Map<String, String>>> eldest) {
      return size() > CACHE_SIZE;
    }
  };

  private Selectors() {
  }

  /** True when the labels match; an unparsable selector matches nothing (it was validated when stored). */
  static boolean matches(String selector, Map<String, String> labels) {
    Predicate<Map<String, String>> compiled;
    synchronized (CACHE) {
      compiled = CACHE.get(selector);
    }
    if (compiled == null) {
      try {
        compiled = compile(selector);
      } catch (IllegalArgumentException e) {
        compiled = l -> false;
      }
      synchronized (CACHE) {
        CACHE.put(selector, compiled);
      }
    }
    return compiled.test(labels);
  }

  /** Parses a selector; throws IllegalArgumentException naming the offending requirement. */
  static Predicate<Map<String, String>> compile(String selector) {
    Predicate<Map<String, String>> all = l -> true;
    for (String requirement : split(selector)) {
      all = all.and(requirement(requirement.trim()));
    }
    return all;
  }

  private static List<String> split(String selector) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < selector.length(); i++) {
      char c = selector.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(selector.substring(start, i));
        start = i + 1;
      }
    }
    String last = selector.substring(start);
    if (!parts.isEmpty() || !last.isBlank()) {
      parts.add(last);
    }
    return parts;
  }

  private static Predicate<Map<String, String>> requirement(String r) {
    if (r.isEmpty()) {
      throw new IllegalArgumentException("empty requirement");
    }
    if (r.startsWith("!")) {
      String key = key(r.substring(1).trim(), r);
      return l -> !l.containsKey(key);
    }
    String[] set = setOperator(r);
    if (set != null) {
      String key = key(set[0], r);
      Set<String> values = values(set[2], r);
      boolean in = set[1].equals("in");
      return l -> in ? values.contains(l.get(key)) : !values.contains(l.get(key));
    }
    int ne = r.indexOf("!=");
    if (ne > 0) {
      String key = key(r.substring(0, ne).trim(), r);
      String value = value(r.substring(ne + 2).trim(), r);
      return l -> !value.equals(l.get(key));
    }
    int eq = r.indexOf('=');
    if (eq > 0) {
      int valueStart = r.startsWith("==", eq) ? eq + 2 : eq + 1;
      String key = key(r.substring(0, eq).trim(), r);
      String value = value(r.substring(valueStart).trim(), r);
      return l -> value.equals(l.get(key));
    }
    String key = key(r, r);
    return l -> l.containsKey(key);
  }

  private static String[] setOperator(String r) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\S+)\\s+(in|notin)\\s*\\((.*)\\)$").matcher(r);
    return m.matches() ? new String[] {m.group(1), m.group(2), m.group(3)} : null;
  }

  private static Set<String> values(String list, String r) {
    Set<String> out = new java.util.HashSet<>();
    for (String v : list.split(",", -1)) {
      out.add(value(v.trim(), r));
    }
    return out;
  }

  private static String key(String key, String r) {
    if (!key.matches("([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?")) {
      throw new IllegalArgumentException("invalid label key in \"" + r + "\"");
    }
    return key;
  }

  private static String value(String value, String r) {
    if (!value.matches("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?")) {
      throw new IllegalArgumentException("invalid label value in \"" + r + "\"");
    }
    return value;
  }
}
