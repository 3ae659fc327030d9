package io.jxds.balancer.internal.tls;

import io.jxds.api.CertificateProvider;
import io.jxds.client.internal.tls.MaterialKeyManager;
import java.util.Optional;

/**
 * Presents, at each handshake, the current identity of the certificate provider the connection's
 * cluster names ({@code tls_certificate_provider_instance}, gRFC A29); none when the cluster asks
 * for no client certificate. A rotated certificate serves the next handshake.
 */
final class ClusterKeyManager extends MaterialKeyManager {
  private final ClusterTlsRegistry registry;

  ClusterKeyManager(ClusterTlsRegistry registry) {
    this.registry = registry;
  }

  @Override
  protected Optional<CertificateProvider.Material> identity(String host, int port) {
    return registry.lookup(host, port).flatMap(ClusterTls::identity).map(CertificateProvider::material);
  }
}
