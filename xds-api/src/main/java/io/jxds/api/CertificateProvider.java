package io.jxds.api;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A certificate provider instance of the bootstrap's {@code certificate_providers} (gRFC A29): the
 * key, certificate chain and roots a TLS handshake uses, kept current by the provider (the
 * {@code file_watcher} plugin re-reads its files). Handshakes read {@link #material()} each time,
 * so new material serves new connections while established ones keep theirs.
 *
 * <p>Thread-safe: read on transport threads.
 */
public interface CertificateProvider {
  /**
   * The latest good material; while a read fails, the last good one stays.
   *
   * @return never null; its parts are empty when the provider serves none or has read none yet
   */
  Material material();

  /**
   * Why the provider has no current material, while its last read failed.
   *
   * @return the failure (naming the file and the problem), or empty when the last read succeeded
   */
  Optional<String> failure();

  /**
   * One consistent reading of a provider's files.
   *
   * @param privateKey the identity's key, empty when the provider serves no identity
   * @param certificateChain the identity's chain, leaf first; empty exactly when {@code privateKey} is
   * @param rootCertificates the trusted roots, empty when the provider serves none
   * @param generation increases with each new material of the provider (0: nothing read yet)
   */
  record Material(
      Optional<PrivateKey> privateKey,
      List<X509Certificate> certificateChain,
      List<X509Certificate> rootCertificates,
      long generation) {
    /** Nothing read yet. */
    public static final Material EMPTY = new Material(Optional.empty(), List.of(), List.of(), 0);

    /**
     * Checks the fields.
     *
     * @param privateKey the key, if any
     * @param certificateChain the chain, copied
     * @param rootCertificates the roots, copied
     * @param generation the generation
     * @throws IllegalArgumentException if only one of key and chain is present
     */
    public Material {
      Objects.requireNonNull(privateKey, "privateKey");
      certificateChain = List.copyOf(certificateChain);
      rootCertificates = List.copyOf(rootCertificates);
      if (privateKey.isPresent() == certificateChain.isEmpty()) {
        throw new IllegalArgumentException("a private key and a certificate chain go together");
      }
    }
  }
}
