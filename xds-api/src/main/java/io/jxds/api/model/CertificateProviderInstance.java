package io.jxds.api.model;

import java.util.Objects;

/**
 * A reference from a cluster's TLS context to a certificate provider of the bootstrap's
 * {@code certificate_providers} (gRFC A29): {@code CertificateProviderPluginInstance}.
 *
 * @param instanceName {@code instance_name}: the key in the bootstrap's {@code certificate_providers}
 * @param certificateName {@code certificate_name}: which certificate of that provider; empty for
 *     its default (the {@code file_watcher} plugin has only one and ignores it)
 */
public record CertificateProviderInstance(String instanceName, String certificateName) {
  /**
   * Checks the fields.
   *
   * @param instanceName non-empty
   * @param certificateName may be empty
   * @throws IllegalArgumentException if {@code instanceName} is empty
   */
  public CertificateProviderInstance {
    Objects.requireNonNull(instanceName, "instanceName");
    Objects.requireNonNull(certificateName, "certificateName");
    if (instanceName.isEmpty()) {
      throw new IllegalArgumentException("instanceName must not be empty");
    }
  }
}
