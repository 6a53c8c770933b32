package io.olmstead.agent.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class SubsetTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  @Test
  void fieldsAddedByTheServerDoNotCountAsChanges() throws Exception {
    assertThat(
            Subset.contains(
                json("{\"spec\":{\"replicas\":1,\"revisionHistoryLimit\":10},\"status\":{}}"),
                json("{\"spec\":{\"replicas\":1}}")))
        .isTrue();
  }

  @Test
  void aDifferentValueIsAChange() throws Exception {
    assertThat(
            Subset.contains(
                json("{\"spec\":{\"replicas\":2}}"), json("{\"spec\":{\"replicas\":1}}")))
        .isFalse();
  }

  @Test
  void aMissingFieldIsAChange() throws Exception {
    assertThat(Subset.contains(json("{\"spec\":{}}"), json("{\"spec\":{\"replicas\":1}}")))
        .isFalse();
  }

  @Test
  void listsMustHaveTheSameLength() throws Exception {
    assertThat(Subset.contains(json("{\"a\":[1,2,3]}"), json("{\"a\":[1,2]}"))).isFalse();
    assertThat(Subset.contains(json("{\"a\":[{\"x\":1,\"y\":2}]}"), json("{\"a\":[{\"x\":1}]}")))
        .isTrue();
  }

  @Test
  void numbersAndTheirTextFormsCompareEqual() throws Exception {
    assertThat(Subset.contains(json("{\"port\":\"8080\"}"), json("{\"port\":8080}"))).isTrue();
    assertThat(Subset.contains(json("{\"n\":1.0}"), json("{\"n\":1}"))).isTrue();
  }
}
