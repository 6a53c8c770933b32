package io.olmstead.agent.certs;

import io.olmstead.olmcore.installplan.CertPlan;
import io.olmstead.olmcore.installplan.ServingCert;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Generates a webhook serving certificate as OLM does ({@code pkg/controller/certs}): a self-signed
 * ECDSA P-256 CA and an ECDSA P-256 serving certificate for the Service's host names, both valid
 * {@link CertPlan#VALID_FOR}. The JDK's providers do the cryptography; BouncyCastle builds the
 * X.509 structures and writes PEM. The CA's key is dropped once the pair is signed (OLM keeps only
 * the CA certificate; a rotation makes a new CA).
 */
public final class CertIssuer {
  private static final String SIGNATURE = "SHA256withECDSA";
  private final SecureRandom random = new SecureRandom();

  /** A new CA and serving certificate for {@code hosts}, valid from {@code now}. */
  public ServingCert issue(List<String> hosts, Instant now) throws GeneralSecurityException {
    Instant notAfter = now.plus(CertPlan.VALID_FOR);
    Date from =
        Date.from(
            now.minusSeconds(60)); // a minute of clock skew between the agent and the API server
    Date until = Date.from(notAfter);
    KeyPair caKeys = keyPair();
    X500Name caName = name("olm-selfsigned-" + new BigInteger(40, random).toString(16));
    X509v3CertificateBuilder ca =
        new JcaX509v3CertificateBuilder(caName, serial(), from, until, caName, caKeys.getPublic());
    KeyPair servingKeys = keyPair();
    X509v3CertificateBuilder serving =
        new JcaX509v3CertificateBuilder(
            caName, serial(), from, until, name(hosts.get(0)), servingKeys.getPublic());
    try {
      ca.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      ca.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.digitalSignature));
      serving.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      serving.addExtension(
          Extension.keyUsage,
          true,
          new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
      serving.addExtension(
          Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
      serving.addExtension(
          Extension.subjectAlternativeName,
          false,
          new GeneralNames(
              hosts.stream()
                  .map(h -> new GeneralName(GeneralName.dNSName, h))
                  .toArray(GeneralName[]::new)));
      ContentSigner signer = new JcaContentSignerBuilder(SIGNATURE).build(caKeys.getPrivate());
      JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
      X509Certificate caCert = converter.getCertificate(ca.build(signer));
      X509Certificate servingCert = converter.getCertificate(serving.build(signer));
      return new ServingCert(
          pem(caCert), pem(servingCert), pem(servingKeys.getPrivate()), notAfter);
    } catch (IOException | OperatorCreationException e) {
      throw new GeneralSecurityException("could not build the serving certificate", e);
    }
  }

  private KeyPair keyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"), random);
    return generator.generateKeyPair();
  }

  private BigInteger serial() {
    return new BigInteger(127, random).add(BigInteger.ONE);
  }

  private static X500Name name(String commonName) {
    return new X500NameBuilder(BCStyle.INSTANCE)
        .addRDN(BCStyle.CN, commonName)
        .addRDN(BCStyle.O, CertPlan.ORGANIZATION)
        .build();
  }

  private static String pem(Object object) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    }
    return out.toString();
  }
}
