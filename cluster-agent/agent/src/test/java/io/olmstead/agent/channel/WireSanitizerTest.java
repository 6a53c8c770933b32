package io.olmstead.agent.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.apispec.protocol.Condition;
import io.olmstead.apispec.protocol.CsvDetails;
import io.olmstead.apispec.protocol.Facts;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.olmstead.apispec.protocol.ProtocolException;
import io.olmstead.apispec.protocol.SchemaDecoder;
import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the agent sends fits the protocol's schemas whatever the cluster put in it, so it is not
 * refused for ever.
 */
class WireSanitizerTest {
  @Test
  void helloWithANulOrOversizeVersionAndNegativeNodesIsMadeValid() throws ProtocolException {
    Hello hostile =
        new Hello(
            1,
            null,
            "0.1\u00000" + "x".repeat(60_000),
            List.of(1),
            new Facts("v1.30\u0000", "y".repeat(100), -5, "Pwned"),
            3L);
    assertThat(SchemaDecoder.violation(hostile)).isNotNull();
    Hello sent = WireSanitizer.hello(hostile);
    assertThat(SchemaDecoder.decode(ProtocolCodec.encode(sent))).isEqualTo(sent);
    assertThat(sent.agentVersion()).startsWith("0.1\uFFFD0").hasSize(64);
    assertThat(sent.facts().nodes()).isNull();
    assertThat(WireSanitizer.hello(new Hello(1, null, "", List.of(1), null, null)).agentVersion())
        .isEqualTo("unknown");
    Hello plain = new Hello(1, null, "0.1.0", List.of(1), new Facts(null, null, null, null), null);
    assertThat(WireSanitizer.hello(plain)).isEqualTo(plain);
  }

  @Test
  void statusWithHostileTextsPhasesAndConditionsIsMadeValid() throws ProtocolException {
    Condition bad =
        new Condition(
            "Upgradeable", "Maybe", "r\u0000".repeat(600), "m".repeat(9000), "t".repeat(100));
    SubscriptionStatus item =
        new SubscriptionStatus(
            "etcd",
            "b".repeat(600),
            "1\u0000",
            "v".repeat(200),
            "Pwned",
            "x".repeat(300),
            "\u0000".repeat(5000),
            Collections.nCopies(40, bad),
            -1L);
    Status hostile = new Status(1, null, null, 9, true, List.of(item));
    assertThat(SchemaDecoder.violation(hostile)).isNotNull();
    Status sent = WireSanitizer.status(hostile);
    assertThat(SchemaDecoder.decode(ProtocolCodec.encode(sent))).isEqualTo(sent);
    assertThat(sent.subscriptions().get(0).phase()).isEqualTo("Unknown");
    assertThat(sent.subscriptions().get(0).conditions()).hasSize(32);
    SubscriptionStatus sparse =
        new SubscriptionStatus(
            "etcd",
            null,
            null,
            null,
            null,
            null,
            null,
            List.of(new Condition("Ready", null, null, null, null)),
            null);
    assertThat(WireSanitizer.item(sparse).phase()).isEqualTo("Unknown");
  }

  @Test
  void csvDetailsWithTooManyEntriesOrOversizeTextsAreCutToTheSchemasBounds()
      throws ProtocolException {
    CsvDetails.RequirementStatus requirement =
        new CsvDetails.RequirementStatus(
            "g", "v1", "CustomResourceDefinition", "n".repeat(400), "NotPresent", "m".repeat(2000));
    CsvDetails.WebhookStatus webhook =
        new CsvDetails.WebhookStatus(
            "ValidatingAdmissionWebhook", "w.example.com", "d", "d-service");
    CsvDetails.CertificateStatus certificate =
        new CsvDetails.CertificateStatus(
            "d-service", "d-service-cert", "2028-01-01T00:00:00Z", "2027-12-31T00:00:00Z");
    CsvDetails hostile =
        new CsvDetails(
            Collections.nCopies(100, requirement),
            Collections.nCopies(70, webhook),
            Collections.nCopies(20, certificate));
    Status status =
        new Status(
            1,
            null,
            null,
            9,
            true,
            List.of(
                new SubscriptionStatus(
                    "etcd", null, null, null, "Pending", null, null, null, null, hostile)));
    assertThat(SchemaDecoder.violation(status)).isNotNull();

    Status sent = WireSanitizer.status(status);
    assertThat(SchemaDecoder.decode(ProtocolCodec.encode(sent))).isEqualTo(sent);
    CsvDetails csv = sent.subscriptions().get(0).csv();
    assertThat(csv.requirementStatus())
        .hasSize(CsvDetails.MAX_REQUIREMENTS)
        .allSatisfy(r -> assertThat(r.name()).hasSize(316));
    assertThat(csv.webhooks()).hasSize(CsvDetails.MAX_WEBHOOKS);
    assertThat(csv.certificates()).hasSize(CsvDetails.MAX_CERTIFICATES);
  }

  @Test
  void textIsNeverCutInsideASurrogatePair() {
    assertThat(WireSanitizer.text("ab\uD83D\uDE00", 3)).isEqualTo("ab");
    assertThat(WireSanitizer.text(null, 3)).isNull();
  }

  @Test
  void nextSeqContinuesAboveTheControlPlanesButNotFromAnAbsurdCounter() {
    assertThat(ChannelOutbox.nextSeq(1, 7)).isEqualTo(8);
    assertThat(ChannelOutbox.nextSeq(12, 7)).isEqualTo(12);
    // after a re-enrollment the control plane starts from 0: an agent far ahead starts again at 1
    assertThat(ChannelOutbox.nextSeq(Long.MAX_VALUE, 0)).isEqualTo(1);
    assertThat(ChannelOutbox.nextSeq(Status.MAX_SEQ_JUMP + 4, 4))
        .isEqualTo(Status.MAX_SEQ_JUMP + 4);
    assertThat(ChannelOutbox.nextSeq(Status.MAX_SEQ_JUMP + 5, 4)).isEqualTo(5);
  }
}
