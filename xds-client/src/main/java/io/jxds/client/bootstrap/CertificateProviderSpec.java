package io.jxds.client.bootstrap;

import io.jxds.client.internal.DurationFormat;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of the bootstrap's {@code certificate_providers} (gRFC A29), of the one plugin jxds (like
 * gRPC) supports, {@code file_watcher}: PEM files a local agent writes and rotates.
 *
 * @param certificateFile {@code config.certificate_file}: the identity's certificate chain, leaf first
 * @param privateKeyFile {@code config.private_key_file}: its key (PKCS#8, or PKCS#1 RSA)
 * @param caCertificateFile {@code config.ca_certificate_file}: the roots that verify peers
 * @param refreshInterval {@code config.refresh_interval}: how often the files are read again
 *     (default {@value #DEFAULT_REFRESH_MINUTES} min)
 */
public record CertificateProviderSpec(
    Optional<String> certificateFile,
    Optional<String> privateKeyFile,
    Optional<String> caCertificateFile,
    Duration refreshInterval) {
  /** The plugin jxds supports. */
  public static final String FILE_WATCHER = "file_watcher";
  /** gRPC's default {@code refresh_interval}, in minutes. */
  public static final int DEFAULT_REFRESH_MINUTES = 10;

  /**
   * Checks the fields.
   *
   * @param certificateFile the chain file, if any
   * @param privateKeyFile the key file, present exactly when {@code certificateFile} is
   * @param caCertificateFile the roots file, if any
   * @param refreshInterval positive
   * @throws IllegalArgumentException if no file is given, only one of certificate and key is, or
   *     the interval is not positive
   */
  public CertificateProviderSpec {
    Objects.requireNonNull(certificateFile, "certificateFile");
    Objects.requireNonNull(privateKeyFile, "privateKeyFile");
    Objects.requireNonNull(caCertificateFile, "caCertificateFile");
    Objects.requireNonNull(refreshInterval, "refreshInterval");
    if (certificateFile.isPresent() != privateKeyFile.isPresent()) {
      throw new IllegalArgumentException("certificate_file and private_key_file go together");
    }
    if (certificateFile.isEmpty() && caCertificateFile.isEmpty()) {
      throw new IllegalArgumentException("certificate_file and private_key_file, or ca_certificate_file, is required");
    }
    if (refreshInterval.isNegative() || refreshInterval.isZero()) {
      throw new IllegalArgumentException(
          "refresh_interval must be positive, got " + DurationFormat.format(refreshInterval));
    }
  }

  /**
   * A provider of an identity and roots, re-read every 10 minutes.
   *
   * @param certificateFile the chain
   * @param privateKeyFile its key
   * @param caCertificateFile the roots
   * @return the spec
   */
  public static CertificateProviderSpec files(String certificateFile, String privateKeyFile, String caCertificateFile) {
    return new CertificateProviderSpec(Optional.of(certificateFile), Optional.of(privateKeyFile),
        Optional.of(caCertificateFile), Duration.ofMinutes(DEFAULT_REFRESH_MINUTES));
  }
}
