package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Finds property names anywhere under an OpenAPI v3 schema, iteratively and within a depth and node
 * budget, so a huge or deeply nested schema costs bounded time and never overflows the stack.
 */
final class SchemaSearch {

  static final int MAX_DEPTH = 64;
  static final int MAX_NODES = 50_000;

  /**
   * The names of {@code wanted} found, whether the budget ran out before the whole schema was seen,
   * and the number of schema nodes visited (the work done: at most {@link #MAX_NODES} + 1 whatever
   * the schema).
   */
  record Result(Set<String> found, boolean incomplete, int visited) {}

  private record Item(JsonNode node, int depth) {}

  static Result find(JsonNode schema, Set<String> wanted) {
    Set<String> found = new HashSet<>();
    boolean incomplete = false;
    Deque<Item> todo = new ArrayDeque<>();
    todo.push(new Item(schema, 0));
    int visited = 0;
    while (!todo.isEmpty()) {
      Item it = todo.pop();
      if (++visited > MAX_NODES || it.depth() > MAX_DEPTH) {
        incomplete = true;
        break;
      }
      JsonNode props = it.node().path("properties");
      if (props.isObject()) {
        for (var e = props.fields(); e.hasNext(); ) {
          Map.Entry<String, JsonNode> f = e.next();
          if (wanted.contains(f.getKey())) {
            found.add(f.getKey());
          }
          todo.push(new Item(f.getValue(), it.depth() + 1));
        }
      }
      for (String sub : new String[] {"items", "additionalProperties"}) {
        if (it.node().path(sub).isObject()) {
          todo.push(new Item(it.node().get(sub), it.depth() + 1));
        }
      }
      for (String list : new String[] {"allOf", "anyOf", "oneOf"}) {
        for (JsonNode s : Json.array(it.node(), list)) {
          todo.push(new Item(s, it.depth() + 1));
        }
      }
    }
    return new Result(found, incomplete, visited);
  }
}
