package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * OLM's {@code shouldRotateCerts}, as a decision on an existing certificate Secret: its certificate
 * is kept while the CA and the certificate are both parseable, active, more than a day from expiry,
 * the certificate is signed by the CA and covers every host name; otherwise a new pair is needed. A
 * function of its inputs and the time given.
 */
public final class CertRotation {
  private CertRotation() {}

  /**
   * The certificate in {@code secret} when it may be kept for {@code hosts} at {@code now}; empty =
   * rotate.
   */
  public static Optional<ServingCert> reusable(JsonNode secret, List<String> hosts, Instant now) {
    if (secret == null) {
      return Optional.empty();
    }
    JsonNode data = secret.path("data");
    Optional<String> caPem = decoded(data, CertPlan.CA_PEM_KEY);
    Optional<String> certPem = decoded(data, "tls.crt");
    Optional<String> keyPem = decoded(data, "tls.key");
    if (caPem.isEmpty() || certPem.isEmpty() || keyPem.isEmpty()) {
      return Optional.empty();
    }
    try {
      X509Certificate ca = parse(caPem.get());
      X509Certificate cert = parse(certPem.get());
      if (!fresh(ca, now) || !fresh(cert, now) || !hostsCovered(cert, hosts)) {
        return Optional.empty();
      }
      cert.verify(ca.getPublicKey());
      return Optional.of(
          new ServingCert(
              caPem.get(), certPem.get(), keyPem.get(), cert.getNotAfter().toInstant()));
    } catch (GeneralSecurityException | RuntimeException e) {
      return Optional.empty(); // malformed, or not signed by this CA
    }
  }

  /** The certificate of a PEM text. */
  public static X509Certificate parse(String pem) throws GeneralSecurityException {
    return (X509Certificate)
        CertificateFactory.getInstance("X.509")
            .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
  }

  private static boolean fresh(X509Certificate cert, Instant now) {
    return !now.isBefore(cert.getNotBefore().toInstant())
        && now.isBefore(cert.getNotAfter().toInstant().minus(CertPlan.MIN_FRESH));
  }

  private static boolean hostsCovered(X509Certificate cert, List<String> hosts)
      throws GeneralSecurityException {
    Collection<List<?>> names = cert.getSubjectAlternativeNames();
    List<String> dns = new ArrayList<>();
    if (names != null) {
      for (List<?> name : names) {
        if (Integer.valueOf(2).equals(name.get(0))) {
          dns.add(String.valueOf(name.get(1)));
        }
      }
    }
    return dns.containsAll(hosts);
  }

  private static Optional<String> decoded(JsonNode data, String key) {
    String value = data.path(key).asText("");
    if (value.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new String(Base64.getDecoder().decode(value), StandardCharsets.US_ASCII));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
