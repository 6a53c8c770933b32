package io.olmstead.agent.certs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.olmcore.installplan.CertPlan;
import io.olmstead.olmcore.installplan.CertRotation;
import io.olmstead.olmcore.installplan.ServingCert;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issuing and keeping serving certificates (upstream certresources_test.go TestShouldRotateCerts
 * cases).
 */
class CertIssuerTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final List<String> HOSTS = CertPlan.hosts("hooks-service", "ops");
  private final CertIssuer issuer = new CertIssuer();

  @Test
  void anIssuedCertificateIsAnEcdsaP256PairForTheServiceHostsValidFor730DaysSignedByItsCa()
      throws Exception {
    ServingCert cert = issuer.issue(HOSTS, NOW);

    X509Certificate ca = CertRotation.parse(cert.caPem());
    X509Certificate serving = CertRotation.parse(cert.certPem());
    serving.verify(ca.getPublicKey());
    assertThat(ca.getBasicConstraints()).isGreaterThanOrEqualTo(0);
    assertThat(serving.getPublicKey().getAlgorithm()).isEqualTo("EC");
    assertThat(
            serving.getSubjectAlternativeNames().stream()
                .map(n -> String.valueOf(n.get(1)))
                .toList())
        .containsExactlyElementsOf(
            List.of(
                "hooks-service.ops",
                "hooks-service.ops.svc",
                "hooks-service.ops.svc.cluster.local"));
    assertThat(Duration.between(NOW, serving.getNotAfter().toInstant()))
        .isEqualTo(Duration.ofDays(730));
    assertThat(cert.keyPem()).startsWith("-----BEGIN EC PRIVATE KEY-----");
    assertThat(cert.toString()).doesNotContain(cert.keyPem());
  }

  @Test
  void aValidSecretIsKept() throws Exception {
    ServingCert cert = issuer.issue(HOSTS, NOW);

    assertThat(
            CertRotation.reusable(
                secret(cert.caPem(), cert.certPem(), cert.keyPem()),
                HOSTS,
                NOW.plus(Duration.ofDays(300))))
        .hasValueSatisfying(kept -> assertThat(kept.certPem()).isEqualTo(cert.certPem()));
  }

  @Test
  void aCertificateWithinADayOfExpiryIsRotated() throws Exception {
    ServingCert cert = issuer.issue(HOSTS, NOW);

    assertThat(
            CertRotation.reusable(
                secret(cert.caPem(), cert.certPem(), cert.keyPem()),
                HOSTS,
                NOW.plus(Duration.ofDays(729)).plusSeconds(1)))
        .isEmpty();
  }

  @Test
  void aCertificateNotYetValidIsRotated() throws Exception {
    ServingCert cert = issuer.issue(HOSTS, NOW);

    assertThat(
            CertRotation.reusable(
                secret(cert.caPem(), cert.certPem(), cert.keyPem()),
                HOSTS,
                NOW.minus(Duration.ofHours(1))))
        .isEmpty();
  }

  @Test
  void aCertificateSignedByAnotherCaIsRotated() throws Exception {
    ServingCert one = issuer.issue(HOSTS, NOW);
    ServingCert other = issuer.issue(HOSTS, NOW);

    assertThat(
            CertRotation.reusable(secret(other.caPem(), one.certPem(), one.keyPem()), HOSTS, NOW))
        .isEmpty();
  }

  @Test
  void aCertificateForOtherHostsIsRotated() throws Exception {
    ServingCert cert = issuer.issue(CertPlan.hosts("hooks-service", "elsewhere"), NOW);

    assertThat(
            CertRotation.reusable(secret(cert.caPem(), cert.certPem(), cert.keyPem()), HOSTS, NOW))
        .isEmpty();
  }

  @Test
  void aSecretMissingTheCaOrHoldingGarbageIsRotated() throws Exception {
    ServingCert cert = issuer.issue(HOSTS, NOW);

    assertThat(CertRotation.reusable(secret(null, cert.certPem(), cert.keyPem()), HOSTS, NOW))
        .isEmpty();
    assertThat(
            CertRotation.reusable(secret("not a pem", cert.certPem(), cert.keyPem()), HOSTS, NOW))
        .isEmpty();
    assertThat(CertRotation.reusable(null, HOSTS, NOW)).isEmpty();
  }

  private static ObjectNode secret(String ca, String cert, String key) {
    ObjectNode secret = JsonNodeFactory.instance.objectNode();
    ObjectNode data = secret.putObject("data");
    put(data, CertPlan.CA_PEM_KEY, ca);
    put(data, "tls.crt", cert);
    put(data, "tls.key", key);
    return secret;
  }

  private static void put(ObjectNode data, String key, String pem) {
    if (pem != null) {
      data.put(key, Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII)));
    }
  }
}
