package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.olmstead.apispec.protocol.Condition;
import io.olmstead.apispec.protocol.CsvDetails;
import io.olmstead.apispec.protocol.DesiredSubscription;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place where the agent protocol's records (api-spec) meet the reconcile loop's own:
 * desired subscriptions in, statuses out. A status awaiting approval carries the bundle in a {@code
 * RequiresApproval} condition's message, since the protocol's status item has no bundle field for
 * it.
 */
public final class ProtocolMapping {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ProtocolMapping() {}

  /** A protocol desired subscription as the reconcile loop consumes it. */
  public static SubscriptionToReconcile fromProtocol(DesiredSubscription d) {
    JsonNode config = d.config() == null ? null : JSON.valueToTree(d.config());
    SubscriptionToReconcile.Approval approval =
        "Manual".equalsIgnoreCase(d.approval())
            ? SubscriptionToReconcile.Approval.MANUAL
            : SubscriptionToReconcile.Approval.AUTOMATIC;
    return new SubscriptionToReconcile(
        d.name(),
        d.catalog(),
        d.catalogDigest(),
        d.packageName(),
        d.channel(),
        d.namespace(),
        d.targetNamespaces(),
        approval,
        d.startingBundle(),
        d.maxVersion(),
        config,
        "Delete".equalsIgnoreCase(d.crdRemoval()),
        d.generation(),
        d.blockedReason(),
        Boolean.TRUE.equals(d.rollback()),
        d.crdUpgradeSafety());
  }

  /** All subscriptions of a protocol {@code desired} message. */
  public static List<SubscriptionToReconcile> fromProtocol(List<DesiredSubscription> subs) {
    return subs == null ? List.of() : subs.stream().map(ProtocolMapping::fromProtocol).toList();
  }

  /**
   * A status as the protocol reports it. The name is always a DNS-1123 label, as the control plane
   * requires: a dependency installed by an older agent may carry a name made from a channel such as
   * {@code 3.x}.
   */
  public static io.olmstead.apispec.protocol.SubscriptionStatus toProtocol(SubscriptionStatus s) {
    List<Condition> conditions = new ArrayList<>();
    for (SubscriptionStatus.StatusCondition c : s.conditions()) {
      conditions.add(new Condition(c.type(), c.status(), c.reason(), c.message(), null));
    }
    if (SubscriptionStatus.REQUIRES_APPROVAL.equals(s.phase()) && s.targetBundle() != null) {
      conditions.add(
          new Condition(
              SubscriptionStatus.REQUIRES_APPROVAL,
              "True",
              SubscriptionStatus.REQUIRES_APPROVAL,
              s.targetBundle(),
              null));
    }
    return new io.olmstead.apispec.protocol.SubscriptionStatus(
        SubscriptionNames.dnsLabel(s.name()),
        s.installedBundle(),
        s.installedVersion(),
        s.targetVersion(),
        s.phase(),
        s.reason(),
        s.message(),
        conditions.isEmpty() ? null : conditions,
        s.observedGeneration(),
        csv(s.csv()));
  }

  /** The CSV details as the protocol carries them; null (left out) when there are none. */
  static CsvDetails csv(io.olmstead.agent.reconcile.CsvDetails d) {
    if (d.isEmpty()) {
      return null;
    }
    List<CsvDetails.RequirementStatus> requirements =
        d.requirements().stream()
            .map(
                r ->
                    new CsvDetails.RequirementStatus(
                        r.group(),
                        r.version(),
                        r.kind(),
                        r.name(),
                        r.status(),
                        r.message() == null || r.message().isEmpty() ? null : r.message()))
            .toList();
    List<CsvDetails.WebhookStatus> webhooks =
        d.webhooks().stream()
            .map(
                w ->
                    new CsvDetails.WebhookStatus(
                        w.type(), w.generateName(), w.deploymentName(), w.service()))
            .toList();
    List<CsvDetails.CertificateStatus> certificates =
        d.certificates().stream()
            .map(
                c ->
                    new CsvDetails.CertificateStatus(
                        c.service(), c.secret(), c.expiresAt().toString(), c.rotateAt().toString()))
            .toList();
    return new CsvDetails(
        requirements.isEmpty() ? null : requirements,
        webhooks.isEmpty() ? null : webhooks,
        certificates.isEmpty() ? null : certificates);
  }
}
