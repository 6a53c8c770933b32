package io.olmstead.apispec.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every protocol record, as Jackson writes it, is valid against its JSON Schema (and the AsyncAPI
 * lists them all).
 */
class ProtocolSchemaTest {
  private static final JsonSchemaFactory FACTORY =
      JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

  static Stream<Object[]> samples() {
    return Stream.of(
        new Object[] {
          "hello",
          new Hello(1, "h1", "0.1.0", List.of(1), new Facts("v1.30.2", null, 3, "hollow"), 7L)
        },
        new Object[] {
          "welcome",
          new Welcome(1, null, "prod-eu-1", "s-1", 15, new Limits(65536, 1048576, 20, 100), 0)
        },
        new Object[] {
          "desired",
          new Desired(
              1,
              null,
              3,
              List.of(
                  new DesiredSubscription(
                      "etcd",
                      "community",
                      "sha256:" + "a".repeat(64),
                      "etcd",
                      "singlenamespace-alpha",
                      "etcd",
                      List.of("etcd"),
                      "Automatic",
                      null,
                      "0.9.4",
                      Map.of("env", List.of(Map.of("name", "A", "value", "b"))),
                      "Keep",
                      2,
                      null)))
        },
        new Object[] {
          "status",
          new Status(
              1,
              "x",
              "prod-eu-1",
              12,
              true,
              List.of(
                  new SubscriptionStatus(
                      "etcd",
                      "etcdoperator.v0.9.4",
                      "0.9.4",
                      "0.9.4",
                      "Succeeded",
                      "InstallSucceeded",
                      "ok",
                      List.of(new Condition("Upgradeable", "True", null, null, null)),
                      3L)))
        },
        new Object[] {
          "status",
          new Status(
              1,
              "y",
              "prod-eu-1",
              13,
              false,
              List.of(
                  new SubscriptionStatus(
                      "topology",
                      null,
                      null,
                      "1.19.3",
                      "Pending",
                      "RequirementsNotMet",
                      "unmet",
                      null,
                      4L,
                      new CsvDetails(
                          List.of(
                              new CsvDetails.RequirementStatus(
                                  "operators.coreos.com",
                                  "v1alpha1",
                                  "ClusterServiceVersion",
                                  "t.v1.19.3",
                                  "PresentNotSatisfied",
                                  "CSV version requirement not met")),
                          List.of(
                              new CsvDetails.WebhookStatus(
                                  "ValidatingAdmissionWebhook",
                                  "vbinding.kb.io",
                                  "messaging-topology-operator",
                                  "messaging-topology-operator-service")),
                          List.of(
                              new CsvDetails.CertificateStatus(
                                  "messaging-topology-operator-service",
                                  "messaging-topology-operator-service-cert",
                                  "2028-11-27T10:00:00Z",
                                  "2028-11-26T10:00:00Z"))))))
        },
        new Object[] {"status-ack", new StatusAck(1, null, 12)},
        new Object[] {"ack", new Ack(1, null, 3)},
        new Object[] {"heartbeat", new Heartbeat(1, null)},
        new Object[] {"approve", new Approve(1, null, "etcd", "etcdoperator.v0.9.4")},
        new Object[] {"inventory", InventorySamples.one()},
        new Object[] {
          "desired",
          new Desired(
              1,
              null,
              4,
              List.of(
                  new DesiredSubscription(
                      "etcd",
                      "community",
                      null,
                      "etcd",
                      null,
                      "etcd",
                      null,
                      "Automatic",
                      null,
                      "0.9.2",
                      null,
                      null,
                      2,
                      null,
                      null,
                      "Strict")),
              List.of(new PreflightRequest("pf-1", "etcd", "0.9.4", "etcdoperator.v0.9.4")))
        },
        new Object[] {
          "preflight",
          new Preflight(
              1,
              null,
              "pf-1",
              "etcd",
              "0.9.4",
              Preflight.FAIL,
              List.of(
                  new PreflightFinding(
                      "ExistingResourceInvalid",
                      PreflightFinding.ERROR,
                      "etcdclusters.etcd.database.coreos.com",
                      "error validating existing CRs against new CRD's schema")))
        });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void recordJsonIsValidAgainstItsSchemaAndTheEnvelope(String schema, AgentMessage message) {
    JsonNode json = ProtocolCodec.mapper().valueToTree(message);
    assertThat(validate(schema, json)).isEmpty();
    assertThat(validate("envelope", json)).isEmpty();
    assertThat(json.get("type").asText()).isEqualTo(message.type());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void recordSurvivesARoundTripThroughTheCodec(String schema, AgentMessage message)
      throws ProtocolException {
    assertThat(ProtocolCodec.decode(ProtocolCodec.encode(message))).isEqualTo(message);
  }

  @Test
  void schemaRejectsAStatusWithoutSeqOrWithABadPhase() {
    ObjectNode json =
        ProtocolCodec.mapper()
            .valueToTree(
                new Status(
                    1,
                    null,
                    null,
                    5,
                    false,
                    List.of(
                        new SubscriptionStatus(
                            "etcd", null, null, null, "Exploded", null, null, null, null))));
    assertThat(validate("status", json)).isNotEmpty();
    json.remove("seq");
    assertThat(validate("status", json)).anyMatch(m -> m.getMessage().contains("seq"));
  }

  @Test
  void schemaRejectsAPreflightWithAnUnknownVerdictOrTooManyFindings() {
    ObjectNode json =
        ProtocolCodec.mapper()
            .valueToTree(new Preflight(1, null, "pf-1", "etcd", "0.9.4", "Maybe", List.of()));
    assertThat(validate("preflight", json)).anyMatch(m -> m.getMessage().contains("verdict"));
    List<PreflightFinding> many =
        java.util.Collections.nCopies(
            Preflight.MAX_FINDINGS + 1,
            new PreflightFinding("X", PreflightFinding.WARNING, null, "m"));
    assertThat(
            validate(
                "preflight",
                ProtocolCodec.mapper()
                    .valueToTree(
                        new Preflight(1, null, "pf-1", "etcd", "0.9.4", Preflight.WARN, many))))
        .anyMatch(m -> m.getMessage().contains("findings"));
  }

  @Test
  void asyncApiDocumentNamesEverySchemaAndMessageType() throws IOException {
    try (InputStream in = resource("asyncapi.yaml")) {
      JsonNode doc = new YAMLMapper().readTree(in);
      assertThat(doc.path("asyncapi").asText()).startsWith("3.");
      JsonNode messages = doc.path("components").path("messages");
      assertThat(ProtocolCodec.TYPES)
          .allSatisfy(type -> assertThat(messages.has(type)).as(type).isTrue());
      messages.forEach(
          m -> {
            String ref = m.path("payload").path("schema").path("$ref").asText();
            assertThat(ref).startsWith("./schemas/");
            assertThat(ProtocolSchemaTest.class.getResource("/agent-protocol/" + ref.substring(2)))
                .as(ref)
                .isNotNull();
          });
    }
  }

  @Test
  void closeReasonsHaveDistinctApplicationCodes() {
    assertThat(Stream.of(CloseReason.values()).map(CloseReason::code).distinct())
        .hasSize(CloseReason.values().length);
    assertThat(CloseReason.ofCode(4006)).contains(CloseReason.WRONG_CLUSTER);
    assertThat(CloseReason.WRONG_CLUSTER.describe("x".repeat(500))).hasSizeLessThanOrEqualTo(120);
  }

  private static Set<ValidationMessage> validate(String schema, JsonNode json) {
    try (InputStream in = resource("schemas/" + schema + ".json")) {
      JsonSchema compiled = FACTORY.getSchema(in);
      return compiled.validate(json);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static InputStream resource(String name) {
    InputStream in = ProtocolSchemaTest.class.getResourceAsStream("/agent-protocol/" + name);
    assertThat(in).as(name).isNotNull();
    return in;
  }
}
