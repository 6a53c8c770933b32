package io.olmstead.apispec.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Mutates real agent messages (bytes, fields, types, lengths) with a seeded random and feeds them
 * to the decoder: each one is either accepted as a message that is valid against its schema, or
 * refused with a {@link ProtocolException}; nothing else is thrown and no input takes long. {@code
 * -Dfuzz.seed=N} replays a run.
 */
class SchemaDecoderFuzzTest {
  private static final long SEED = Long.getLong("fuzz.seed", 20261123L);
  private static final int MUTATIONS = 6_000;
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final byte[] SPECIALS = "{}[]\",:0-e\\\u0000 ".getBytes(StandardCharsets.UTF_8);

  /** Messages exactly as the agent's channel client writes them. */
  static List<String> realMessages() {
    SubscriptionStatus etcd =
        new SubscriptionStatus(
            "etcd",
            "etcdoperator.v0.9.4",
            "0.9.4",
            "0.9.4",
            "Succeeded",
            "InstallSucceeded",
            "install strategy completed with no errors",
            List.of(
                new Condition("Upgradeable", "True", "Upgradeable", "ok", "2026-11-23T02:00:00Z")),
            3L);
    SubscriptionStatus pending =
        new SubscriptionStatus(
            "demo-db",
            null,
            null,
            "0.2.0",
            "RequiresApproval",
            "RequiresApproval",
            null,
            List.of(
                new Condition(
                    "RequiresApproval",
                    "True",
                    "RequiresApproval",
                    "olmstead-demo-db.v0.2.0",
                    null)),
            1L);
    return List.of(
        ProtocolCodec.encode(
            new Hello(
                1,
                null,
                "0.1.0",
                ProtocolVersions.SUPPORTED,
                new Facts("v1.30.2", "4.16.3", 3, "in-guest"),
                41L)),
        ProtocolCodec.encode(new Status(1, null, null, 42, true, List.of(etcd, pending))),
        ProtocolCodec.encode(new Status(1, "r-7", "prod-eu-1", 43, false, List.of(etcd))),
        ProtocolCodec.encode(new Ack(1, null, 7)),
        ProtocolCodec.encode(new Heartbeat(1, null)));
  }

  @Test
  void mutatedRealMessagesAreAcceptedValidOrRefusedCleanly() {
    Random random = new Random(SEED);
    List<String> seeds = realMessages();
    int accepted = 0;
    int refused = 0;
    for (int i = 0; i < MUTATIONS; i++) {
      String original = seeds.get(random.nextInt(seeds.size()));
      String input =
          random.nextBoolean() ? mutateBytes(original, random) : mutateTree(original, random);
      try {
        AgentMessage message = SchemaDecoder.decode(input);
        assertThat(SchemaDecoder.violation(message))
            .as("accepted but invalid (seed %d, #%d): %s", SEED, i, abbreviate(input))
            .isNull();
        accepted++;
      } catch (ProtocolException e) {
        assertThat(e.reason()).isNotNull();
        assertThat(e.getMessage()).isNotBlank().doesNotContain("\u0000").doesNotContain("\n");
        refused++;
      } catch (RuntimeException | StackOverflowError e) {
        fail("decoder threw %s (seed %d, #%d) on %s", e, SEED, i, abbreviate(input));
      }
    }
    // Both outcomes occur, so the mutations neither only break the syntax nor only touch ignored
    // fields.
    assertThat(accepted).isGreaterThan(MUTATIONS / 20);
    assertThat(refused).isGreaterThan(MUTATIONS / 4);
  }

  @Test
  void theUnmutatedMessagesAreAccepted() throws ProtocolException {
    for (String message : realMessages()) {
      assertThat(SchemaDecoder.decode(message)).isEqualTo(ProtocolCodec.decode(message));
    }
  }

  private static String mutateBytes(String text, Random random) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    List<Byte> out = new ArrayList<>();
    for (byte b : bytes) {
      out.add(b);
    }
    int edits = 1 + random.nextInt(4);
    for (int e = 0; e < edits && !out.isEmpty(); e++) {
      int at = random.nextInt(out.size());
      switch (random.nextInt(5)) {
        case 0 -> out.set(at, (byte) random.nextInt(256));
        case 1 -> out.add(at, SPECIALS[random.nextInt(SPECIALS.length)]);
        case 2 -> out.subList(at, Math.min(out.size(), at + 1 + random.nextInt(8))).clear();
        case 3 -> out.subList(at, out.size()).clear();
        default ->
            out.addAll(
                at,
                new ArrayList<>(
                    out.subList(at, Math.min(out.size(), at + 1 + random.nextInt(16)))));
      }
    }
    byte[] mutated = new byte[out.size()];
    for (int i = 0; i < mutated.length; i++) {
      mutated[i] = out.get(i);
    }
    return new String(mutated, StandardCharsets.UTF_8);
  }

  private static String mutateTree(String text, Random random) {
    JsonNode tree;
    try {
      tree = ProtocolCodec.mapper().readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    int edits = 1 + random.nextInt(3);
    for (int e = 0; e < edits; e++) {
      List<ContainerSlot> slots = new ArrayList<>();
      collect(tree, slots);
      ContainerSlot slot = slots.get(random.nextInt(slots.size()));
      slot.set(random.nextInt(8) == 0 ? null : randomValue(random, slot.current()));
    }
    return tree.toString();
  }

  private static JsonNode randomValue(Random random, JsonNode current) {
    return switch (random.nextInt(16)) {
      case 0 -> NODES.textNode("x".repeat(random.nextInt(70_000)));
      case 1 -> NODES.textNode("ok\u0000" + random.nextInt());
      case 2 -> NODES.numberNode(-random.nextInt(10));
      case 3 -> NODES.numberNode(Long.MAX_VALUE);
      case 4 -> NODES.numberNode(new java.math.BigInteger("1" + "0".repeat(random.nextInt(400))));
      case 5 -> NODES.numberNode(random.nextDouble() * 1e300);
      case 6 -> NODES.nullNode();
      case 7 -> NODES.booleanNode(random.nextBoolean());
      case 8 ->
          NODES.textNode(
              List.of("Pwned", "hello", "status", "Succeeded", "", "1", "True", "in-guest")
                  .get(random.nextInt(8)));
      case 9 -> NODES.objectNode().put("type", "status").put("protocol", random.nextInt(3));
      case 10 -> repeated(current, random.nextInt(2_100));
      case 11 -> NODES.numberNode(random.nextInt());
      case 12 -> nested(random.nextInt(100));
      case 13 -> NODES.textNode("line\nbreak\u0007\u202e");
      case 14 -> NODES.arrayNode();
      default -> NODES.numberNode(0);
    };
  }

  private static JsonNode repeated(JsonNode item, int times) {
    ArrayNode array = NODES.arrayNode();
    for (int i = 0; i < times; i++) {
      array.add(item == null ? NODES.nullNode() : item.deepCopy());
    }
    return array;
  }

  private static JsonNode nested(int depth) {
    JsonNode node = NODES.numberNode(1);
    for (int i = 0; i < depth; i++) {
      node = NODES.arrayNode().add(node);
    }
    return node;
  }

  private static void collect(JsonNode node, List<ContainerSlot> out) {
    if (node instanceof ObjectNode object) {
      object.fieldNames().forEachRemaining(name -> out.add(new ContainerSlot(object, name, -1)));
      out.add(new ContainerSlot(object, "extra" + out.size(), -1));
      object.elements().forEachRemaining(child -> collect(child, out));
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        out.add(new ContainerSlot(array, null, i));
      }
      array.elements().forEachRemaining(child -> collect(child, out));
    }
  }

  /** A place in the tree: an object field or an array index; set(null) removes it. */
  private record ContainerSlot(JsonNode container, String field, int index) {
    JsonNode current() {
      return field != null ? container.get(field) : container.get(index);
    }

    void set(JsonNode value) {
      if (container instanceof ObjectNode object) {
        if (value == null) {
          object.remove(field);
        } else {
          object.set(field, value);
        }
      } else if (value == null) {
        ((ArrayNode) container).remove(index);
      } else {
        ((ArrayNode) container).set(index, value);
      }
    }
  }

  private static String abbreviate(String text) {
    return text.length() > 300 ? text.substring(0, 300) + "..." : text;
  }
}
