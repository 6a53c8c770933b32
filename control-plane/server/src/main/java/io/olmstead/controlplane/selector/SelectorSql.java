package io.olmstead.controlplane.selector;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Translates a {@link LabelSelector} into a SQL condition over a jsonb {@code labels} column. Keys
 * and values only ever travel as parameters ({@code $n}); the SQL text depends on the operators
 * alone. Equality uses containment so the GIN index on labels serves it.
 */
public final class SelectorSql {
  private final StringBuilder sql = new StringBuilder();
  private final List<Object> params = new ArrayList<>();
  private final int firstParam;

  private SelectorSql(int firstParam) {
    this.firstParam = firstParam;
  }

  /**
   * The condition ({@code TRUE} for an empty selector) with parameters numbered from {@code
   * firstParam}.
   */
  public static SelectorSql of(LabelSelector selector, String column, int firstParam) {
    SelectorSql out = new SelectorSql(firstParam);
    if (selector.isEmpty()) {
      out.sql.append("TRUE");
    }
    for (LabelSelector.Requirement r : selector.requirements()) {
      if (out.sql.length() > 0) {
        out.sql.append(" AND ");
      }
      out.append(r, column);
    }
    return out;
  }

  public String sql() {
    return sql.toString();
  }

  public List<Object> params() {
    return List.copyOf(params);
  }

  private void append(LabelSelector.Requirement r, String column) {
    switch (r.operator()) {
      case EQUALS ->
          sql.append(column)
              .append(" @> ")
              .append(param(new JsonObject().put(r.key(), r.values().get(0))))
              .append("::jsonb");
      case NOT_EQUALS ->
          sql.append("(")
              .append(column)
              .append(" ->> ")
              .append(param(r.key()))
              .append("::text) IS DISTINCT FROM ")
              .append(param(r.values().get(0)))
              .append("::text");
      case IN ->
          sql.append("(")
              .append(column)
              .append(" ->> ")
              .append(param(r.key()))
              .append("::text) = ANY(")
              .append(param(r.values().toArray(new String[0])))
              .append("::text[])");
      case NOT_IN ->
          sql.append("NOT COALESCE((")
              .append(column)
              .append(" ->> ")
              .append(param(r.key()))
              .append("::text) = ANY(")
              .append(param(r.values().toArray(new String[0])))
              .append("::text[]), false)");
      case EXISTS -> sql.append(column).append(" ? ").append(param(r.key())).append("::text");
      case DOES_NOT_EXIST ->
          sql.append("NOT (").append(column).append(" ? ").append(param(r.key())).append("::text)");
      case GREATER_THAN, LESS_THAN -> {
        String key = param(r.key());
        sql.append("(CASE WHEN (")
            .append(column)
            .append(" ->> ")
            .append(key)
            .append("::text) ~ '^-?[0-9]{1,18}$' THEN (")
            .append(column)
            .append(" ->> ")
            .append(key)
            .append("::text)::bigint ")
            .append(r.operator() == LabelSelector.Operator.GREATER_THAN ? ">" : "<")
            .append(" ")
            .append(param(Long.parseLong(r.values().get(0))))
            .append("::bigint ELSE false END)");
      }
      default -> throw new IllegalStateException("unknown operator " + r.operator());
    }
  }

  private String param(Object value) {
    params.add(value);
    return "$" + (firstParam + params.size() - 1);
  }
}
