package io.olmstead.agent.channel;

import io.olmstead.apispec.protocol.Condition;
import io.olmstead.apispec.protocol.CsvDetails;
import io.olmstead.apispec.protocol.Facts;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Fits what the agent sends into the protocol's schemas before it goes out: NUL characters
 * replaced, texts cut to the schemas' maxLength, unknown phases and condition statuses made {@code
 * Unknown}, at most 32 conditions, the CSV details' lists cut to their maxItems. Texts come from
 * the cluster (operator messages, versions): one bad value must not get every report refused and
 * the agent reconnecting for ever. {@code WireSanitizerTest} checks the results against the schemas
 * themselves.
 */
final class WireSanitizer {
  static final Set<String> PHASES =
      Set.of(
          "Pending",
          "RequiresApproval",
          "InstallReady",
          "Installing",
          "Succeeded",
          "Failed",
          "Replacing",
          "Deleting",
          "Unknown");
  private static final Set<String> MODES = Set.of("in-guest", "hosted", "simulated", "hollow");
  private static final Set<String> CONDITION_STATUSES = Set.of("True", "False", "Unknown");
  private static final int MAX_CONDITIONS = 32;

  private WireSanitizer() {}

  static Hello hello(Hello hello) {
    Facts f = hello.facts();
    Facts facts =
        f == null
            ? null
            : new Facts(
                text(f.kubernetesVersion(), 64),
                text(f.openshiftVersion(), 64),
                f.nodes() == null || f.nodes() < 0 || f.nodes() > 1_000_000 ? null : f.nodes(),
                known(MODES, f.mode()) ? f.mode() : null,
                f.olm());
    String version = text(hello.agentVersion(), 64);
    return new Hello(
        hello.protocol(),
        hello.id(),
        version == null || version.isEmpty() ? "unknown" : version,
        hello.supportedProtocols(),
        facts == null ? new Facts(null, null, null, null) : facts,
        hello.lastStatusSeq());
  }

  static Status status(Status status) {
    List<SubscriptionStatus> items = new ArrayList<>(status.subscriptions().size());
    status.subscriptions().forEach(s -> items.add(item(s)));
    return new Status(
        status.protocol(), status.id(), status.cluster(), status.seq(), status.full(), items);
  }

  static SubscriptionStatus item(SubscriptionStatus s) {
    List<Condition> conditions = null;
    if (s.conditions() != null) {
      conditions = new ArrayList<>();
      for (Condition c : s.conditions()) {
        String type = text(c == null ? null : c.type(), 316);
        if (type != null && !type.isEmpty() && conditions.size() < MAX_CONDITIONS) {
          conditions.add(
              new Condition(
                  type,
                  known(CONDITION_STATUSES, c.status()) ? c.status() : "Unknown",
                  text(c.reason(), 1024),
                  text(c.message(), 4096),
                  text(c.lastTransitionTime(), 64)));
        }
      }
    }
    Long generation =
        s.observedGeneration() == null || s.observedGeneration() < 0
            ? null
            : s.observedGeneration();
    return new SubscriptionStatus(
        s.name(),
        text(s.installedBundle(), 512),
        text(s.installedVersion(), 128),
        text(s.targetVersion(), 128),
        known(PHASES, s.phase()) ? s.phase() : "Unknown",
        text(s.reason(), 256),
        text(s.message(), 4096),
        conditions,
        generation,
        csv(s.csv()));
  }

  /**
   * Lists cut to the schema's maxItems and texts to its maxLength; entries missing a required field
   * dropped.
   */
  static CsvDetails csv(CsvDetails d) {
    if (d == null) {
      return null;
    }
    List<CsvDetails.RequirementStatus> requirements =
        d.requirementStatus() == null
            ? null
            : d.requirementStatus().stream()
                .filter(
                    r -> r != null && r.kind() != null && r.name() != null && r.status() != null)
                .limit(CsvDetails.MAX_REQUIREMENTS)
                .map(
                    r ->
                        new CsvDetails.RequirementStatus(
                            text(r.group(), 253),
                            text(r.version(), 63),
                            text(r.kind(), 63),
                            text(r.name(), 316),
                            text(r.status(), 64),
                            text(r.message(), 1024)))
                .toList();
    List<CsvDetails.WebhookStatus> webhooks =
        d.webhooks() == null
            ? null
            : d.webhooks().stream()
                .filter(w -> w != null && w.type() != null && w.generateName() != null)
                .limit(CsvDetails.MAX_WEBHOOKS)
                .map(
                    w ->
                        new CsvDetails.WebhookStatus(
                            text(w.type(), 64),
                            text(w.generateName(), 253),
                            text(w.deploymentName(), 253),
                            text(w.service(), 253)))
                .toList();
    List<CsvDetails.CertificateStatus> certificates =
        d.certificates() == null
            ? null
            : d.certificates().stream()
                .filter(c -> c != null && c.service() != null && c.expiresAt() != null)
                .limit(CsvDetails.MAX_CERTIFICATES)
                .map(
                    c ->
                        new CsvDetails.CertificateStatus(
                            text(c.service(), 253),
                            text(c.secret(), 253),
                            text(c.expiresAt(), 64),
                            text(c.rotateAt(), 64)))
                .toList();
    return new CsvDetails(requirements, webhooks, certificates);
  }

  // Set.of(...).contains(null) throws
  private static boolean known(Set<String> values, String value) {
    return value != null && values.contains(value);
  }

  /** NUL replaced by U+FFFD and cut to {@code max} characters (never inside a surrogate pair). */
  static String text(String value, int max) {
    if (value == null) {
      return null;
    }
    String clean = value.indexOf('\u0000') >= 0 ? value.replace('\u0000', '\uFFFD') : value;
    if (clean.length() <= max) {
      return clean;
    }
    int end = Character.isHighSurrogate(clean.charAt(max - 1)) ? max - 1 : max;
    return clean.substring(0, end);
  }
}
