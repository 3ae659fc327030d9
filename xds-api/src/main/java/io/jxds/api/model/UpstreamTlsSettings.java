package io.jxds.api.model;

import java.util.List;
import java.util.Objects;

/**
 * What a Cluster's {@code transport_socket} asks of connections to its endpoints, kept as data: a
 * balancer that cannot honour it must refuse to connect rather than fall back to plaintext.
 *
 * @param sni {@code UpstreamTlsContext.sni}, empty when unset
 * @param validationContextNames the names the validation context refers to (SDS secret names or
 *     certificate-provider instance names), in the order they appear
 */
public record UpstreamTlsSettings(String sni, List<String> validationContextNames) {
  /**
   * Creates the settings; the name list is copied.
   *
   * @param sni the SNI, empty when unset
   * @param validationContextNames the validation context's names
   */
  public UpstreamTlsSettings {
    Objects.requireNonNull(sni, "sni");
    validationContextNames = List.copyOf(validationContextNames);
  }
}
