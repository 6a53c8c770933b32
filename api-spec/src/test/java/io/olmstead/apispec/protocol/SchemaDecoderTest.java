package io.olmstead.apispec.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The red team's hostile messages are refused by the schemas, each with a detail naming the field.
 */
class SchemaDecoderTest {
  private static final SubscriptionStatus OK =
      new SubscriptionStatus("etcd", null, null, null, "Succeeded", null, null, null, null);

  @Test
  void helloWithAnOversizeOrNulAgentVersionOrNegativeNodesIsRefusedNamingTheField() {
    assertThat(
            refusal(
                new Hello(
                    1, null, "v".repeat(60_000), List.of(1), new Facts(null, null, 1, null), null)))
        .contains("agentVersion");
    assertThat(
            refusal(
                new Hello(1, null, "0.1\u00000", List.of(1), new Facts(null, null, 1, null), null)))
        .contains("$.agentVersion")
        .contains("NUL");
    assertThat(
            refusal(new Hello(1, null, "0.1.0", List.of(1), new Facts(null, null, -5, null), null)))
        .contains("nodes");
    assertThat(
            refusal(
                new Hello(1, null, "0.1.0", List.of(1), new Facts(null, null, 1, "root"), null)))
        .contains("mode");
  }

  @Test
  void statusWithAnUnknownPhaseTooManyItemsOrAnAbsurdSeqIsRefused() {
    assertThat(
            refusal(
                new Status(
                    1,
                    null,
                    null,
                    1,
                    true,
                    List.of(
                        new SubscriptionStatus(
                            "etcd", null, null, null, "Pwned", null, null, null, null)))))
        .contains("phase");
    assertThat(refusal(new Status(1, null, null, 1, true, Collections.nCopies(2001, OK))))
        .contains("subscriptions");
    assertThat(refusal(new Status(1, null, null, Long.MAX_VALUE, true, List.of(OK))))
        .contains("seq");
    assertThat(refusal(new Status(1, null, null, 0, true, List.of(OK)))).contains("seq");
    assertThat(refusal(new Status(1, null, "Not A Cluster", 1, true, List.of(OK))))
        .contains("cluster");
    assertThat(
            refusal(
                new Status(
                    1,
                    null,
                    null,
                    1,
                    true,
                    List.of(
                        new SubscriptionStatus(
                            "etcd",
                            null,
                            null,
                            null,
                            "Failed",
                            "r".repeat(300),
                            null,
                            null,
                            null)))))
        .contains("reason");
  }

  @Test
  void statusWithTooManyRequirementsWebhooksOrCertificatesIsRefusedNamingTheList() {
    CsvDetails.RequirementStatus requirement =
        new CsvDetails.RequirementStatus(
            null,
            null,
            "CustomResourceDefinition",
            "widgets.example.com",
            "NotPresent",
            "CRD is not present");
    CsvDetails.WebhookStatus webhook =
        new CsvDetails.WebhookStatus("ValidatingAdmissionWebhook", "w.example.com", null, null);
    CsvDetails.CertificateStatus certificate =
        new CsvDetails.CertificateStatus("s", null, "2028-01-01T00:00:00Z", null);
    assertThat(
            refusal(
                withCsv(
                    new CsvDetails(
                        Collections.nCopies(CsvDetails.MAX_REQUIREMENTS + 1, requirement),
                        null,
                        null))))
        .contains("requirementStatus");
    assertThat(
            refusal(
                withCsv(
                    new CsvDetails(
                        null, Collections.nCopies(CsvDetails.MAX_WEBHOOKS + 1, webhook), null))))
        .contains("webhooks");
    assertThat(
            refusal(
                withCsv(
                    new CsvDetails(
                        null,
                        null,
                        Collections.nCopies(CsvDetails.MAX_CERTIFICATES + 1, certificate)))))
        .contains("certificates");
    assertThat(
            refusal(
                withCsv(
                    new CsvDetails(
                        List.of(
                            new CsvDetails.RequirementStatus(
                                null, null, "Kind", "n".repeat(400), "Present", null)),
                        null,
                        null))))
        .contains("name");
  }

  @Test
  void aStatusFromAnAgentWithoutCsvDetailsIsAccepted() throws ProtocolException {
    String old =
        "{\"type\":\"status\",\"protocol\":1,\"seq\":1,\"full\":true,"
            + "\"subscriptions\":[{\"name\":\"etcd\",\"phase\":\"Succeeded\"}]}";
    assertThat(((Status) SchemaDecoder.decode(old)).subscriptions()).containsExactly(OK);
  }

  private static Status withCsv(CsvDetails csv) {
    return new Status(
        1,
        null,
        null,
        1,
        true,
        List.of(
            new SubscriptionStatus(
                "etcd", null, null, null, "Pending", null, null, null, null, csv)));
  }

  @Test
  void wrongTypesAndMissingFieldsAreMalformedAndUnknownTypesAreUnknown() {
    assertThat(code("{\"type\":\"ack\",\"protocol\":1,\"generation\":\"7\"}")).isEqualTo(4002);
    assertThat(code("{\"type\":\"status\",\"protocol\":1,\"seq\":1,\"full\":true}"))
        .isEqualTo(4002);
    assertThat(code("{\"type\":\"hello\",\"protocol\":1,\"agentVersion\":\"x\",\"facts\":[]}"))
        .isEqualTo(4002);
    assertThat(code("{\"type\":\"Pwned\",\"protocol\":1}")).isEqualTo(4003);
    assertThat(code("[1,2]")).isEqualTo(4002);
    assertThat(code("{\"type\":\"heartbeat\",\"protocol\":1,\"x\u0000y\":1}")).isEqualTo(4002);
  }

  @Test
  void validMessagesWithUnknownFieldsAreAccepted() throws ProtocolException {
    assertThat(
            SchemaDecoder.decode("{\"type\":\"heartbeat\",\"protocol\":1,\"newField\":{\"a\":1}}"))
        .isEqualTo(new Heartbeat(1, null));
  }

  private static String refusal(AgentMessage message) {
    ProtocolException e =
        catchThrowableOfType(
            ProtocolException.class, () -> SchemaDecoder.decode(ProtocolCodec.encode(message)));
    assertThat(e).as("refused").isNotNull();
    assertThat(e.reason()).isEqualTo(CloseReason.MALFORMED_MESSAGE);
    assertThat(SchemaDecoder.violation(message)).isNotNull();
    return e.getMessage();
  }

  private static int code(String text) {
    ProtocolException e =
        catchThrowableOfType(ProtocolException.class, () -> SchemaDecoder.decode(text));
    assertThat(e).as("refused: %s", text).isNotNull();
    return e.reason().code();
  }
}
