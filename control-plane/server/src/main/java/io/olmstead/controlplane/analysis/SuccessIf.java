package io.olmstead.controlplane.analysis;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A check's success condition: a comparison and a number, such as {@code "< 0.01"} or {@code ">=
 * 0.99"}.
 */
public record SuccessIf(Op op, double threshold) {
  private static final Pattern FORM =
      Pattern.compile(
          "^\\s*(<=|>=|==|!=|<|>)\\s*([-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?)\\s*$");

  /** The comparisons a condition may use. */
  public enum Op {
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">="),
    EQ("=="),
    NE("!=");

    private final String symbol;

    Op(String symbol) {
      this.symbol = symbol;
    }

    static Op of(String symbol) {
      for (Op op : values()) {
        if (op.symbol.equals(symbol)) {
          return op;
        }
      }
      throw new IllegalArgumentException(symbol);
    }
  }

  /**
   * Parses {@code text}; anything else than a comparison and a finite number throws
   * IllegalArgumentException.
   */
  public static SuccessIf parse(String text) {
    Matcher m = text == null ? null : FORM.matcher(text);
    if (m == null || !m.matches()) {
      throw new IllegalArgumentException(
          "successIf must be a comparison (<, <=, >, >=, ==, !=) and a number, "
              + "such as \"< 0.01\"");
    }
    double value = Double.parseDouble(m.group(2));
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("successIf needs a finite number");
    }
    return new SuccessIf(Op.of(m.group(1)), value);
  }

  /** Whether {@code value} (finite) meets the condition. */
  public boolean test(double value) {
    return switch (op) {
      case LT -> value < threshold;
      case LE -> value <= threshold;
      case GT -> value > threshold;
      case GE -> value >= threshold;
      case EQ -> value == threshold;
      case NE -> value != threshold;
    };
  }

  @Override
  public String toString() {
    String number =
        threshold == Math.rint(threshold) && Math.abs(threshold) < 1e15
            ? String.valueOf((long) threshold)
            : String.valueOf(threshold);
    return op.symbol + " " + number.toLowerCase(Locale.ROOT);
  }
}
