package io.jxds.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throwaway certificate authority for TLS tests: issues EC P-256 identities with the subject
 * alternative names a test needs, and writes them as the PEM files a certificate agent would.
 * Needs {@code org.bouncycastle:bcpkix-jdk18on} on the test classpath (an optional dependency of
 * these fixtures).
 *
 * <pre>{@code
 * TestPki ca = TestPki.create("mesh-ca");
 * TestPki.Identity server = ca.issue("server", "payments.example.com", "spiffe://td/ns/a/sa/payments");
 * server.write(dir.resolve("server"));   // server.crt, server.key
 * ca.writeCertificate(dir.resolve("ca.crt"));
 * }</pre>
 */
public final class TestPki {
  private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime());

  private final String name;
  private final KeyPair keys;
  private final X509Certificate certificate;

  private TestPki(String name, KeyPair keys, X509Certificate certificate) {
    this.name = name;
    this.keys = keys;
    this.certificate = certificate;
  }

  /**
   * A new self-signed root CA, valid for a day.
   *
   * @param name its common name
   * @return the CA
   */
  public static TestPki create(String name) {
    KeyPair keys = newKeyPair();
    X500Name subject = new X500Name("CN=" + name);
    try {
      JcaX509v3CertificateBuilder b = builder(subject, subject, keys, Duration.ofDays(1));
      b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      return new TestPki(name, keys, sign(b, keys.getPrivate()));
    } catch (IOException | GeneralSecurityException | org.bouncycastle.operator.OperatorCreationException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The CA's certificate.
   *
   * @return the self-signed certificate
   */
  public X509Certificate certificate() {
    return certificate;
  }

  /**
   * The CA's common name.
   *
   * @return the name given to {@link #create}
   */
  public String name() {
    return name;
  }

  /**
   * Issues a leaf certificate for client and server use. Each SAN that contains {@code ://} is a URI
   * (SPIFFE ids), one that is an IP literal an IP address, any other a DNS name.
   *
   * @param commonName the subject's common name
   * @param subjectAltNames the SANs
   * @return the identity, valid for a day
   */
  public Identity issue(String commonName, String... subjectAltNames) {
    KeyPair leafKeys = newKeyPair();
    try {
      JcaX509v3CertificateBuilder b =
          builder(new X500Name("CN=" + name), new X500Name("CN=" + commonName), leafKeys, Duration.ofDays(1));
      b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
      if (subjectAltNames.length > 0) {
        GeneralName[] names = new GeneralName[subjectAltNames.length];
        for (int i = 0; i < names.length; i++) {
          names[i] = generalName(subjectAltNames[i]);
        }
        b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
      }
      return new Identity(sign(b, keys.getPrivate()), leafKeys.getPrivate(), certificate);
    } catch (IOException | GeneralSecurityException | org.bouncycastle.operator.OperatorCreationException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Writes the CA certificate as PEM (atomically, as an agent would).
   *
   * @param file where
   * @return {@code file}
   */
  public Path writeCertificate(Path file) {
    return writeAtomically(file, pem("CERTIFICATE", encoded(certificate)));
  }

  /**
   * A leaf certificate, its key and the CA that issued it.
   *
   * @param certificate the leaf
   * @param privateKey its key
   * @param issuer the CA's certificate
   */
  public record Identity(X509Certificate certificate, PrivateKey privateKey, X509Certificate issuer) {
    /**
     * Writes {@code <base>.crt} (the chain: leaf) and {@code <base>.key} (PKCS#8), each atomically.
     *
     * @param base the path both names start with
     * @return this identity
     */
    public Identity write(Path base) {
      writeCertificate(Path.of(base + ".crt"));
      writeKey(Path.of(base + ".key"));
      return this;
    }

    /**
     * Writes the certificate as PEM, atomically.
     *
     * @param file where
     * @return {@code file}
     */
    public Path writeCertificate(Path file) {
      return writeAtomically(file, pem("CERTIFICATE", encoded(certificate)));
    }

    /**
     * Writes the private key as PKCS#8 PEM, atomically.
     *
     * @param file where
     * @return {@code file}
     */
    public Path writeKey(Path file) {
      return writeAtomically(file, pem("PRIVATE KEY", privateKey.getEncoded()));
    }

    /**
     * The certificate file {@link #write} writes.
     *
     * @param base the base path
     * @return {@code <base>.crt}
     */
    public static Path certificateFile(Path base) {
      return Path.of(base + ".crt");
    }

    /**
     * The key file {@link #write} writes.
     *
     * @param base the base path
     * @return {@code <base>.key}
     */
    public static Path keyFile(Path base) {
      return Path.of(base + ".key");
    }
  }

  private static GeneralName generalName(String san) throws IOException {
    if (san.contains("://")) {
      return new GeneralName(GeneralName.uniformResourceIdentifier, san);
    }
    if (san.matches("[0-9.]+") || san.contains(":")) {
      return new GeneralName(GeneralName.iPAddress, InetAddress.getByName(san).getHostAddress());
    }
    return new GeneralName(GeneralName.dNSName, san);
  }

  private static JcaX509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys, Duration life) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(
        issuer,
        BigInteger.valueOf(SERIAL.incrementAndGet()),
        Date.from(now.minus(Duration.ofHours(1))),
        Date.from(now.plus(life)),
        subject,
        keys.getPublic());
  }

  private static X509Certificate sign(JcaX509v3CertificateBuilder b, PrivateKey issuerKey)
      throws GeneralSecurityException, org.bouncycastle.operator.OperatorCreationException {
    return new JcaX509CertificateConverter().getCertificate(
        b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
  }

  private static KeyPair newKeyPair() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"));
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] encoded(X509Certificate c) {
    try {
      return c.getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String pem(String label, byte[] der) {
    return "-----BEGIN " + label + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + label + "-----\n";
  }

  private static Path writeAtomically(Path file, String text) {
    try {
      Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), ".pki", ".tmp");
      Files.writeString(tmp, text, StandardCharsets.US_ASCII);
      return Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
