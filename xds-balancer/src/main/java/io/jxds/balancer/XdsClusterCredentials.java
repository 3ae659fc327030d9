package io.jxds.balancer;

import io.grpc.ChannelCredentials;
import io.jxds.balancer.internal.tls.ClusterCredentials;

/**
 * Channel credentials whose TLS comes from the control plane: for a channel to
 * {@code xds-cluster:///NAME} (or any channel whose policy is {@code xds_cluster}) to a cluster
 * whose {@code transport_socket} is an {@code UpstreamTlsContext} (gRFC A29), every connection
 * presents the client certificate of the certificate provider the cluster names, verifies the
 * backend's chain against that provider's roots (or the system's, gRFC A82), and checks the
 * cluster's {@code match_subject_alt_names}. Certificates rotated by the provider serve the next
 * connection; established ones are not interrupted.
 *
 * <pre>{@code
 * ManagedChannel channel =
 *     Grpc.newChannelBuilder("xds-cluster:///payments", XdsClusterCredentials.create()).build();
 * }</pre>
 *
 * <p>They are TLS credentials and never fall back to plaintext: a cluster without
 * {@code transport_socket} on such a channel fails its RPCs with UNAVAILABLE saying so (build
 * plaintext clusters' channels with {@code InsecureChannelCredentials}). A connection made by these
 * credentials outside an {@code xds_cluster} channel fails its handshake. One object may serve
 * several channels; each handshake is matched to its cluster by the channel's authority, so two
 * channels with the same authority must be for the same cluster.
 */
public final class XdsClusterCredentials {
  private XdsClusterCredentials() {}

  /**
   * New credentials, with their own state: one call per channel is the simplest use.
   *
   * @return TLS channel credentials configured by the {@code xds_cluster} policy
   */
  public static ChannelCredentials create() {
    return ClusterCredentials.create();
  }
}
