package io.jxds.balancer.internal.tls;

import io.grpc.ChannelCredentials;
import io.grpc.LoadBalancer.Helper;
import io.jxds.api.CertificateProvider;
import io.jxds.api.XdsClient;
import io.jxds.api.model.CertificateProviderInstance;
import io.jxds.api.model.UpstreamTlsSettings;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * One CDS balancer's link to its channel's credentials: applies each version of the cluster's
 * {@code transport_socket} to the handshakes of new connections, or says why the cluster cannot
 * be served on this channel. Never a silent downgrade: a TLS cluster on credentials that are not
 * {@code XdsClusterCredentials} (plaintext, or TLS jxds cannot configure) and a plaintext cluster
 * on {@code XdsClusterCredentials} are both refused. Runs on the channel's SynchronizationContext.
 */
public final class ClusterTlsBinding {
  private static final String CREDENTIALS = "io.jxds.balancer.XdsClusterCredentials.create()";

  private final Helper helper;
  private final XdsClient client;
  private final String cluster;
  private Optional<ClusterTlsRegistry> registry;
  private ClusterTlsRegistry.Registration registration;

  /**
   * @param helper the channel's helper, whose credentials and authority are used
   * @param client where the certificate providers come from (its bootstrap's)
   * @param cluster the cluster's name
   */
  public ClusterTlsBinding(Helper helper, XdsClient client, String cluster) {
    this.helper = helper;
    this.client = client;
    this.cluster = cluster;
  }

  /**
   * Makes new connections use {@code tls} (or plaintext when empty).
   *
   * @return why RPCs must fail instead, or empty when the cluster can be served
   */
  public Optional<String> apply(Optional<UpstreamTlsSettings> tls) {
    Optional<ClusterTlsRegistry> ours = registry();
    if (tls.isEmpty()) {
      close();
      return ours.isEmpty()
          ? Optional.empty()
          : Optional.of("cluster " + cluster + " has no transport_socket (plaintext), but the channel's "
              + "credentials are XdsClusterCredentials, which only connect with TLS: jxds never downgrades a TLS "
              + "channel to plaintext; build channels to plaintext clusters with InsecureChannelCredentials");
    }
    if (ours.isEmpty()) {
      close();
      return Optional.of("cluster " + cluster + " asks for TLS (transport_socket UpstreamTlsContext), which only "
          + "channels built with " + CREDENTIALS + " can honour; this channel's credentials are "
          + describe(channelCredentials()));
    }
    UpstreamTlsSettings settings = tls.get();
    Map<String, CertificateProvider> providers = client.certificateProviders();
    Optional<CertificateProvider> identity = Optional.empty();
    if (settings.identityCertificate().isPresent()) {
      CertificateProviderInstance instance = settings.identityCertificate().get();
      identity = Optional.ofNullable(providers.get(instance.instanceName()));
      if (identity.isEmpty()) {
        return Optional.of(unknown("tls_certificate_provider_instance", instance, providers));
      }
    }
    Optional<CertificateProvider> roots = Optional.empty();
    if (settings.rootCertificates().isPresent()) {
      CertificateProviderInstance instance = settings.rootCertificates().get();
      roots = Optional.ofNullable(providers.get(instance.instanceName()));
      if (roots.isEmpty()) {
        return Optional.of(unknown("ca_certificate_provider_instance", instance, providers));
      }
    }
    ClusterTls next = new ClusterTls(cluster, settings, identity, roots);
    if (registration == null) {
      registration = ours.get().register(helper.getAuthority(), next);
    } else {
      registration.update(next);
    }
    return Optional.empty();
  }

  /** Stops serving this cluster's handshakes. Idempotent. */
  public void close() {
    if (registration != null) {
      registration.close();
      registration = null;
    }
  }

  private String unknown(String field, CertificateProviderInstance instance, Map<String, CertificateProvider> known) {
    return "cluster " + cluster + ": " + field + " \"" + instance.instanceName()
        + "\" is not a certificate provider of the xDS client's bootstrap " + new TreeSet<>(known.keySet());
  }

  private Optional<ClusterTlsRegistry> registry() {
    if (registry == null) {
      registry = ClusterCredentials.registryOf(channelCredentials());
    }
    return registry;
  }

  private ChannelCredentials channelCredentials() {
    try {
      return helper.getChannelCredentials();
    } catch (UnsupportedOperationException e) {
      return null; // a Helper that is not a channel's
    }
  }

  private static String describe(ChannelCredentials credentials) {
    return credentials == null ? "unknown" : credentials.getClass().getSimpleName();
  }
}
