package io.olmstead.apispec.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** The inventory schema refuses absurd counts and oversized reports with the field named. */
class InventorySchemaTest {

  @Test
  void decodesAValidReport() throws ProtocolException {
    Inventory sample = InventorySamples.one();
    assertThat(SchemaDecoder.decode(ProtocolCodec.encode(sample))).isEqualTo(sample);
    assertThat(SchemaDecoder.violation(sample)).isNull();
  }

  @Test
  void refusesAnAbsurdCustomResourceCount() {
    ObjectNode json = ProtocolCodec.mapper().valueToTree(InventorySamples.one());
    ((ObjectNode) json.at("/operators/0/customResources/0")).put("count", Inventory.MAX_COUNT + 1);
    assertThatThrownBy(() -> SchemaDecoder.decode(json.toString()))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("inventory: $.operators[0].customResources[0].count");
  }

  @Test
  void refusesANegativeRequest() {
    ObjectNode json = ProtocolCodec.mapper().valueToTree(InventorySamples.one());
    ((ObjectNode) json.at("/operators/0/pods/requests")).put("cpuMillis", -1);
    assertThatThrownBy(() -> SchemaDecoder.decode(json.toString()))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("cpuMillis");
  }

  @Test
  void refusesMoreOperatorsThanTheBound() {
    ObjectNode json = ProtocolCodec.mapper().valueToTree(InventorySamples.one());
    ArrayNode operators = (ArrayNode) json.get("operators");
    while (operators.size() <= Inventory.MAX_OPERATORS) {
      operators.add(operators.get(1).deepCopy());
    }
    assertThatThrownBy(() -> SchemaDecoder.decode(json.toString()))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("$.operators");
  }
}
