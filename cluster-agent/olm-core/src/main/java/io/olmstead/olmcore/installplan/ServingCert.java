package io.olmstead.olmcore.installplan;

import java.time.Instant;
import java.util.Objects;

/**
 * A serving certificate for one webhook/APIService Service: the CA (PEM), the certificate the CA
 * signed (PEM), its private key (PEM) and when the pair expires. The key is generated in the
 * cluster's agent and goes nowhere but the Secret; {@link #toString()} leaves it out so a log line
 * cannot carry it.
 */
public record ServingCert(String caPem, String certPem, String keyPem, Instant notAfter) {
  public ServingCert {
    Objects.requireNonNull(caPem, "caPem");
    Objects.requireNonNull(certPem, "certPem");
    Objects.requireNonNull(keyPem, "keyPem");
    Objects.requireNonNull(notAfter, "notAfter");
  }

  /** When the agent replaces it (OLM: a day before expiry). */
  public Instant rotateAt() {
    return notAfter.minus(CertPlan.MIN_FRESH);
  }

  @Override
  public String toString() {
    return "ServingCert[notAfter=" + notAfter + ", key=<redacted>]";
  }
}
