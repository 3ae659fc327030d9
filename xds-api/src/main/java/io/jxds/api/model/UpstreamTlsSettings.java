package io.jxds.api.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a Cluster's {@code transport_socket} ({@code UpstreamTlsContext}, gRFC A29) asks of
 * connections to its endpoints: the client certificate to present, the roots to verify the
 * server's chain with, and the subject alternative names it must carry. A balancer that cannot
 * honour it must refuse to connect rather than fall back to plaintext or skip a check.
 *
 * @param sni {@code sni}, empty when unset (kept as data: see docs/tls.md, "Limits", on what jxds sends)
 * @param identityCertificate the provider of the client certificate ({@code tls_certificate_provider_instance}
 *     or its older form), empty for TLS without a client certificate
 * @param rootCertificates the provider of the roots ({@code ca_certificate_provider_instance} or its
 *     older form); empty exactly when {@code systemRootCertificates} is true
 * @param systemRootCertificates {@code system_root_certs} (gRFC A82): verify with the JVM's trust store
 * @param subjectAltNameMatchers {@code match_subject_alt_names}; empty means any name is accepted
 *     once the chain verifies
 */
public record UpstreamTlsSettings(
    String sni,
    Optional<CertificateProviderInstance> identityCertificate,
    Optional<CertificateProviderInstance> rootCertificates,
    boolean systemRootCertificates,
    List<SubjectAltNameMatcher> subjectAltNameMatchers) {
  /**
   * Checks the fields.
   *
   * @param sni the SNI, may be empty
   * @param identityCertificate the client certificate's provider, if any
   * @param rootCertificates the roots' provider, if not the system roots
   * @param systemRootCertificates whether the system roots are used
   * @param subjectAltNameMatchers the SAN matchers, copied
   * @throws IllegalArgumentException unless exactly one source of roots is given
   */
  public UpstreamTlsSettings {
    Objects.requireNonNull(sni, "sni");
    Objects.requireNonNull(identityCertificate, "identityCertificate");
    Objects.requireNonNull(rootCertificates, "rootCertificates");
    subjectAltNameMatchers = List.copyOf(subjectAltNameMatchers);
    if (rootCertificates.isPresent() == systemRootCertificates) {
      throw new IllegalArgumentException(
          "exactly one of rootCertificates and systemRootCertificates is required, got "
              + rootCertificates + " and " + systemRootCertificates);
    }
  }

  /**
   * Mutual TLS verified by one provider's roots, as most meshes configure it.
   *
   * @param instance the provider instance for both the client certificate and the roots
   * @param matchers the SAN matchers
   * @return the settings
   */
  public static UpstreamTlsSettings mutual(String instance, List<SubjectAltNameMatcher> matchers) {
    CertificateProviderInstance p = new CertificateProviderInstance(instance, "");
    return new UpstreamTlsSettings("", Optional.of(p), Optional.of(p), false, matchers);
  }
}
