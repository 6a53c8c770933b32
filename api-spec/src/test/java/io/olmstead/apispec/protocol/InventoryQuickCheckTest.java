package io.olmstead.apispec.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The quick inventory check never passes what the schema (or the NUL rule) refuses: every field of
 * a full report is broken in turn (removed, null, wrong type, below and above its bounds, too long,
 * NUL, not matching its pattern, arrays over their item limits) and each result the schema refuses
 * must fail the quick check too.
 */
class InventoryQuickCheckTest {
  private static final ObjectMapper JSON = ProtocolCodec.mapper();
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final List<JsonNode> BAD_VALUES =
      List.of(
          F.nullNode(),
          F.textNode("x\u0000y"),
          F.textNode(""),
          F.textNode("a".repeat(254)),
          F.textNode("a".repeat(600)),
          F.textNode("Not A Label"),
          F.textNode("-bad-"),
          F.numberNode(-1),
          F.numberNode(0),
          F.numberNode(1001),
          F.numberNode(100_000_001L),
          F.numberNode(1_000_001),
          F.numberNode(1_000_000_001L),
          F.numberNode(9_007_199_254_740_992L),
          F.numberNode(1.5),
          F.numberNode(new java.math.BigInteger("99999999999999999999999")),
          F.booleanNode(true),
          F.objectNode(),
          F.arrayNode(),
          F.textNode("Sideways"));

  private static JsonNode full() {
    ObjectNode tree = JSON.valueToTree(InventorySamples.one());
    tree.put("truncated", false).put("id", "m-1");
    ((ObjectNode) tree.at("/operators/0/customResources/0")).put("capped", true);
    ((ObjectNode) tree.at("/operators/0"))
        .put("dependencyOf", "x")
        .put("bundle", "b")
        .put("reason", "r");
    ((ObjectNode) tree.at("/operators/0/stacks/0/pods"))
        .set("limits", JSON.valueToTree(new Inventory.Resources(1, 1)));
    ((ObjectNode) tree.at("/operators/0/stacks/0/pods"))
        .set("usage", JSON.valueToTree(new Inventory.Resources(1, 1)));
    return tree;
  }

  private static boolean schemaRefuses(JsonNode tree) {
    return SchemaDecoder.refusal("inventory", tree) != null;
  }

  @Test
  void aFullReportPassesBothChecks() {
    assertThat(schemaRefuses(full())).isFalse();
    assertThat(InventoryQuickCheck.passes(full())).isTrue();
    assertThat(InventoryQuickCheck.passes(JSON.valueToTree(InventorySamples.one()))).isTrue();
  }

  @Test
  void everyReportTheSchemaRefusesFailsTheQuickCheck() {
    List<String> paths = new ArrayList<>();
    collect(full(), "", paths);
    int refused = 0;
    List<String> passedWrongly = new ArrayList<>();
    for (String path : paths) {
      List<Consumer<JsonNode>> edits = new ArrayList<>();
      String parent = path.substring(0, path.lastIndexOf('/'));
      String last = path.substring(path.lastIndexOf('/') + 1);
      edits.add(
          t -> {
            JsonNode p = t.at(parent);
            if (p instanceof ObjectNode o) {
              o.remove(last);
            }
          });
      for (JsonNode bad : BAD_VALUES) {
        edits.add(t -> replace(t.at(parent), last, bad.deepCopy()));
      }
      edits.add(
          t -> {
            JsonNode node = t.at(path);
            if (node instanceof ArrayNode a && a.size() > 0) {
              while (a.size() <= 200) {
                a.add(a.get(0).deepCopy());
              }
            }
          });
      edits.add(
          t -> {
            if (t.at(path) instanceof ObjectNode o) {
              o.put("extra", "n\u0000ul");
            }
          });
      for (Consumer<JsonNode> edit : edits) {
        JsonNode tree = full();
        edit.accept(tree);
        if (schemaRefuses(tree)) {
          refused++;
          if (InventoryQuickCheck.passes(tree)) {
            passedWrongly.add(path + " -> " + tree);
          }
        }
      }
    }
    assertThat(passedWrongly).isEmpty();
    assertThat(refused).as("the mutations break the schema often").isGreaterThan(300);
  }

  private static void replace(JsonNode parent, String field, JsonNode value) {
    if (parent instanceof ObjectNode o) {
      o.set(field, value);
    } else if (parent instanceof ArrayNode a) {
      a.set(Integer.parseInt(field), value);
    }
  }

  private static void collect(JsonNode node, String path, List<String> out) {
    if (!path.isEmpty()) {
      out.add(path);
    }
    if (node.isObject()) {
      node.fieldNames().forEachRemaining(f -> collect(node.get(f), path + "/" + f, out));
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        collect(node.get(i), path + "/" + i, out);
      }
    }
  }
}
