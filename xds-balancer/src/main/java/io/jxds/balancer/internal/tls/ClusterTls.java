package io.jxds.balancer.internal.tls;

import io.jxds.api.CertificateProvider;
import io.jxds.api.model.UpstreamTlsSettings;
import java.util.Optional;

/**
 * What the handshakes of one cluster's connections use: its TLS settings and the certificate
 * providers they name, found in the XdsClient's bootstrap.
 *
 * @param cluster the cluster's name, for error messages
 * @param settings the cluster's {@code UpstreamTlsContext}, validated
 * @param identity the provider of the client certificate, if the cluster asks for one
 * @param roots the provider of the roots; empty for the system trust store (gRFC A82)
 */
public record ClusterTls(
    String cluster, UpstreamTlsSettings settings, Optional<CertificateProvider> identity,
    Optional<CertificateProvider> roots) {}
