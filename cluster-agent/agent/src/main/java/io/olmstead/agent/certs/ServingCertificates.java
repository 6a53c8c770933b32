package io.olmstead.agent.certs;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.olmcore.installplan.CertPlan;
import io.olmstead.olmcore.installplan.CertRotation;
import io.olmstead.olmcore.installplan.ServingCert;
import io.olmstead.olmcore.installplan.ServingCertInjection;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The I/O around serving certificates for one plan: for each certificate Secret the plan holds, the
 * Secret in the cluster is read and its certificate kept while {@link CertRotation} allows, else a
 * new one is issued; the plan is returned with the certificates filled in. Keys stay in this
 * process and the cluster's Secrets. Blocking (reads through fabric8): reconcile worker threads
 * only.
 */
public final class ServingCertificates {
  private final ResourceOperator resources;
  private final CertIssuer issuer;
  private final Clock clock;

  public ServingCertificates(ResourceOperator resources, CertIssuer issuer, Clock clock) {
    this.resources = resources;
    this.issuer = issuer;
    this.clock = clock;
  }

  /** The plan's objects completed with certificates, and what each Service's certificate is. */
  public record Completed(List<JsonNode> objects, Map<String, ServingCert> certificates) {}

  /** Fills in {@code objects} (a plan for {@code namespace}). */
  public Completed complete(List<JsonNode> objects, String namespace) throws ResourceException {
    List<String> services = ServingCertInjection.services(objects);
    if (services.isEmpty()) {
      return new Completed(objects, Map.of());
    }
    Map<String, ServingCert> certs = new LinkedHashMap<>();
    for (String service : services) {
      List<String> hosts = CertPlan.hosts(service, namespace);
      Optional<JsonNode> existing =
          resources.get("v1", "Secret", namespace, CertPlan.secretName(service));
      Optional<ServingCert> kept =
          CertRotation.reusable(existing.orElse(null), hosts, clock.instant());
      certs.put(service, kept.isPresent() ? kept.get() : issue(service, hosts));
    }
    return new Completed(ServingCertInjection.inject(objects, certs), Map.copyOf(certs));
  }

  private ServingCert issue(String service, List<String> hosts) throws ResourceException {
    try {
      return issuer.issue(hosts, clock.instant());
    } catch (GeneralSecurityException e) {
      // no key material in the message: only the service and the provider's reason
      throw new ResourceException(
          "cannot issue the serving certificate of service " + service + ": " + e.getMessage(),
          500,
          null);
    }
  }
}
