package io.jxds.client.internal.tls;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Reads the PEM files certificate agents write: X.509 certificates ({@code CERTIFICATE} blocks) and
 * private keys as PKCS#8 ({@code PRIVATE KEY}) or PKCS#1 RSA ({@code RSA PRIVATE KEY}), and checks
 * that a key belongs to a certificate. Errors say what is wrong, never with the key's bytes.
 */
public final class PemFiles {
  private static final String[] KEY_ALGORITHMS = {"RSA", "EC", "Ed25519", "Ed448"};

  private PemFiles() {}

  /**
   * Parses every certificate of {@code pem}, in order.
   *
   * @throws GeneralSecurityException if there is none or one does not parse
   */
  public static List<X509Certificate> certificates(byte[] pem) throws GeneralSecurityException {
    List<X509Certificate> out = new ArrayList<>();
    for (var c : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem))) {
      out.add((X509Certificate) c);
    }
    if (out.isEmpty()) {
      throw new GeneralSecurityException("no certificate in the file");
    }
    return out;
  }

  /**
   * Parses the first private key of {@code pem}.
   *
   * @throws GeneralSecurityException if there is no supported key block or it does not parse
   */
  public static PrivateKey privateKey(byte[] pem) throws GeneralSecurityException {
    String text = new String(pem, StandardCharsets.US_ASCII);
    byte[] pkcs8 = block(text, "PRIVATE KEY");
    if (pkcs8 == null) {
      byte[] pkcs1 = block(text, "RSA PRIVATE KEY");
      if (pkcs1 == null) {
        throw new GeneralSecurityException(
            "no \"PRIVATE KEY\" (PKCS#8) or \"RSA PRIVATE KEY\" (PKCS#1) block in the file");
      }
      pkcs8 = rsaPkcs1ToPkcs8(pkcs1);
    }
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(pkcs8);
    GeneralSecurityException last = null;
    for (String algorithm : KEY_ALGORITHMS) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        last = e;
      }
    }
    throw new GeneralSecurityException("the private key does not parse as RSA, EC or EdDSA", last);
  }

  /**
   * Checks that {@code key} signs what {@code leaf}'s public key verifies.
   *
   * @throws GeneralSecurityException if they are not a pair
   */
  public static void checkPair(PrivateKey key, X509Certificate leaf) throws GeneralSecurityException {
    PublicKey publicKey = leaf.getPublicKey();
    String algorithm = signatureAlgorithm(key);
    byte[] challenge = new byte[32];
    new SecureRandom().nextBytes(challenge);
    Signature signer = Signature.getInstance(algorithm);
    signer.initSign(key);
    signer.update(challenge);
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance(algorithm);
    try {
      verifier.initVerify(publicKey);
      verifier.update(challenge);
      if (verifier.verify(signature)) {
        return;
      }
    } catch (GeneralSecurityException e) {
      // a key of another algorithm than the certificate's: not a pair either
    }
    throw new GeneralSecurityException(
        "the private key does not match the certificate " + leaf.getSubjectX500Principal().getName());
  }

  private static String signatureAlgorithm(PrivateKey key) throws GeneralSecurityException {
    switch (key.getAlgorithm()) {
      case "RSA":
        return "SHA256withRSA";
      case "EC":
        return "SHA256withECDSA";
      case "Ed25519":
      case "Ed448":
      case "EdDSA":
        return key.getAlgorithm();
      default:
        throw new GeneralSecurityException("unsupported private key algorithm " + key.getAlgorithm());
    }
  }

  private static byte[] block(String text, String label) {
    String begin = "-----BEGIN " + label + "-----";
    int start = text.indexOf(begin);
    if (start < 0) {
      return null;
    }
    int end = text.indexOf("-----END " + label + "-----", start);
    if (end < 0) {
      return null;
    }
    String body = text.substring(start + begin.length(), end).replaceAll("\\s", "");
    try {
      return Base64.getDecoder().decode(body);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  // PKCS#8 PrivateKeyInfo: SEQUENCE { INTEGER 0, SEQUENCE { OID rsaEncryption, NULL }, OCTET STRING pkcs1 }.
  private static byte[] rsaPkcs1ToPkcs8(byte[] pkcs1) {
    byte[] algorithm = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01,
        0x01, 0x01, 0x05, 0x00};
    byte[] version = {0x02, 0x01, 0x00};
    byte[] octets = der(0x04, pkcs1);
    byte[] body = new byte[version.length + algorithm.length + octets.length];
    System.arraycopy(version, 0, body, 0, version.length);
    System.arraycopy(algorithm, 0, body, version.length, algorithm.length);
    System.arraycopy(octets, 0, body, version.length + algorithm.length, octets.length);
    return der(0x30, body);
  }

  private static byte[] der(int tag, byte[] content) {
    int n = content.length;
    byte[] length;
    if (n < 0x80) {
      length = new byte[] {(byte) n};
    } else if (n < 0x100) {
      length = new byte[] {(byte) 0x81, (byte) n};
    } else if (n < 0x10000) {
      length = new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n};
    } else {
      length = new byte[] {(byte) 0x83, (byte) (n >> 16), (byte) (n >> 8), (byte) n};
    }
    byte[] out = new byte[1 + length.length + n];
    out[0] = (byte) tag;
    System.arraycopy(length, 0, out, 1, length.length);
    System.arraycopy(content, 0, out, 1 + length.length, n);
    return out;
  }
}
