package io.jxds.balancer.internal.tls;

import io.grpc.ChannelCredentials;
import io.grpc.TlsChannelCredentials;
import java.util.Optional;
import javax.net.ssl.TrustManager;

/**
 * Builds the credentials behind {@code XdsClusterCredentials} and finds their registry again in a
 * balancer: public gRPC API gives a balancer its channel's credentials
 * ({@code Helper.getChannelCredentials()}) but no way to choose credentials per subchannel, so the
 * channel's own TLS credentials carry jxds's key and trust managers, and the balancer tells them,
 * through the registry, what each cluster's connections must present and verify.
 */
public final class ClusterCredentials {
  private ClusterCredentials() {}

  /** New TLS credentials with a registry of their own. */
  public static ChannelCredentials create() {
    ClusterTlsRegistry registry = new ClusterTlsRegistry();
    return TlsChannelCredentials.newBuilder()
        .keyManager(new ClusterKeyManager(registry))
        .trustManager(new ClusterTrustManager(registry))
        .build();
  }

  /**
   * The registry of {@code credentials} when they are (or wrap, through
   * {@code withoutBearerTokens()}) credentials from {@link #create()}; empty for any others.
   */
  public static Optional<ClusterTlsRegistry> registryOf(ChannelCredentials credentials) {
    if (credentials == null) {
      return Optional.empty();
    }
    ChannelCredentials bare = credentials.withoutBearerTokens();
    if (bare instanceof TlsChannelCredentials tls && tls.getTrustManagers() != null) {
      for (TrustManager tm : tls.getTrustManagers()) {
        if (tm instanceof ClusterTrustManager cluster) {
          return Optional.of(cluster.registry());
        }
      }
    }
    return Optional.empty();
  }
}
