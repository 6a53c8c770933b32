package io.olmstead.controlplane.selector;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A Kubernetes label selector ({@code env=prod,region in (eu,us),!canary,tier!=db,gpu}) parsed into
 * requirements that all must hold. Pure: {@link #parse} checks syntax, key and value rules; {@link
 * #matches} evaluates in memory and {@link SelectorSql} turns it into parameterised SQL over the
 * jsonb labels.
 */
public record LabelSelector(List<Requirement> requirements) {
  public static final int MAX_REQUIREMENTS = 64;
  public static final int MAX_VALUES = 64;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,18}");

  /** How a requirement compares a label with its values. */
  public enum Operator {
    EQUALS,
    NOT_EQUALS,
    IN,
    NOT_IN,
    EXISTS,
    DOES_NOT_EXIST,
    GREATER_THAN,
    LESS_THAN
  }

  /** One comma-separated term of a selector. */
  public record Requirement(String key, Operator operator, List<String> values) {
    public Requirement {
      values = List.copyOf(values);
    }

    public boolean matches(Map<String, String> labels) {
      String value = labels.get(key);
      return switch (operator) {
        case EQUALS, IN -> value != null && values.contains(value);
        case NOT_EQUALS, NOT_IN -> value == null || !values.contains(value);
        case EXISTS -> value != null;
        case DOES_NOT_EXIST -> value == null;
        case GREATER_THAN ->
            value != null
                && INTEGER.matcher(value).matches()
                && Long.parseLong(value) > Long.parseLong(values.get(0));
        case LESS_THAN ->
            value != null
                && INTEGER.matcher(value).matches()
                && Long.parseLong(value) < Long.parseLong(values.get(0));
      };
    }
  }

  public LabelSelector {
    requirements = List.copyOf(requirements);
  }

  /** The selector that matches everything. */
  public static LabelSelector everything() {
    return new LabelSelector(List.of());
  }

  public boolean isEmpty() {
    return requirements.isEmpty();
  }

  public boolean matches(Map<String, String> labels) {
    return requirements.stream().allMatch(r -> r.matches(labels));
  }

  /** Parses a selector; an empty or blank text selects everything. */
  public static LabelSelector parse(String text) {
    if (text == null || text.isBlank()) {
      return everything();
    }
    return new Parser(text).selector();
  }

  /** Whether {@code key} is a valid label key ({@code [prefix/]name}). */
  public static boolean validKey(String key) {
    int slash = key.indexOf('/');
    String prefix = slash < 0 ? null : key.substring(0, slash);
    String name = slash < 0 ? key : key.substring(slash + 1);
    if (prefix != null
        && (prefix.isEmpty()
            || prefix.length() > 253
            || !DNS_SUBDOMAIN.matcher(prefix).matches())) {
      return false;
    }
    return !name.isEmpty() && name.length() <= 63 && NAME.matcher(name).matches();
  }

  /** Whether {@code value} is a valid label value (possibly empty). */
  public static boolean validValue(String value) {
    return value.isEmpty() || (value.length() <= 63 && NAME.matcher(value).matches());
  }

  /** A hand-written recursive-descent parser: tokens are words, operators and punctuation. */
  private static final class Parser {
    private final String text;
    private int pos;

    Parser(String text) {
      this.text = text;
    }

    LabelSelector selector() {
      List<Requirement> requirements = new ArrayList<>();
      do {
        if (requirements.size() == MAX_REQUIREMENTS) {
          throw error("more than " + MAX_REQUIREMENTS + " requirements");
        }
        requirements.add(requirement());
        skipSpace();
      } while (consume(","));
      skipSpace();
      if (pos < text.length()) {
        throw error("unexpected '" + text.charAt(pos) + "'");
      }
      return new LabelSelector(requirements);
    }

    private Requirement requirement() {
      skipSpace();
      if (peek("!") && !peek("!=")) {
        pos++;
        return new Requirement(key(), Operator.DOES_NOT_EXIST, List.of());
      }
      String key = key();
      skipSpace();
      if (consume("==") || consume("=")) {
        return new Requirement(key, Operator.EQUALS, List.of(value(true)));
      }
      if (consume("!=")) {
        return new Requirement(key, Operator.NOT_EQUALS, List.of(value(true)));
      }
      if (consume(">") || consume("<")) {
        boolean greater = text.charAt(pos - 1) == '>';
        String number = value(false);
        if (!INTEGER.matcher(number).matches()) {
          throw error("'" + number + "' is not an integer");
        }
        return new Requirement(
            key, greater ? Operator.GREATER_THAN : Operator.LESS_THAN, List.of(number));
      }
      int mark = pos;
      String word = word();
      if (word.equals("in") || word.equals("notin")) {
        return new Requirement(key, word.equals("in") ? Operator.IN : Operator.NOT_IN, set());
      }
      pos = mark;
      if (pos < text.length() && text.charAt(pos) != ',') {
        throw error("expected an operator (=, ==, !=, in, notin, >, <) or ','");
      }
      return new Requirement(key, Operator.EXISTS, List.of());
    }

    private List<String> set() {
      skipSpace();
      if (!consume("(")) {
        throw error("expected '(' after in/notin");
      }
      List<String> values = new ArrayList<>();
      do {
        skipSpace();
        if (values.size() == MAX_VALUES) {
          throw error("more than " + MAX_VALUES + " values in a set");
        }
        values.add(value(true));
        skipSpace();
      } while (consume(","));
      if (!consume(")")) {
        throw error("expected ')' or ','");
      }
      if (values.size() == 1 && values.get(0).isEmpty()) {
        throw error("an in/notin set needs at least one value");
      }
      return values;
    }

    private String key() {
      skipSpace();
      String key = word();
      if (key.isEmpty()) {
        throw error("expected a label key");
      }
      if (!validKey(key)) {
        throw error("'" + key + "' is not a valid label key");
      }
      return key;
    }

    private String value(boolean checked) {
      skipSpace();
      String value = word();
      if (checked && !validValue(value)) {
        throw error("'" + value + "' is not a valid label value");
      }
      return value;
    }

    private String word() {
      int start = pos;
      while (pos < text.length() && "!=<>(), \t".indexOf(text.charAt(pos)) < 0) {
        pos++;
      }
      return text.substring(start, pos);
    }

    private boolean consume(String token) {
      if (text.startsWith(token, pos)) {
        pos += token.length();
        return true;
      }
      return false;
    }

    private boolean peek(String token) {
      return text.startsWith(token, pos);
    }

    private void skipSpace() {
      while (pos < text.length() && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t')) {
        pos++;
      }
    }

    private SelectorException error(String message) {
      return new SelectorException(message + " at position " + pos);
    }
  }

  /** A selector that does not parse; its message says where and why. */
  public static final class SelectorException extends IllegalArgumentException {
    public SelectorException(String message) {
      super(message);
    }
  }
}
