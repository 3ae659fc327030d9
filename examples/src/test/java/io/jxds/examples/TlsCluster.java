package io.jxds.examples;

// docs/tls.md:begin
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.jxds.balancer.XdsClusterCredentials;
import io.jxds.balancer.XdsClusterPolicy;

final class TlsCluster {
  /**
   * A channel to a cluster the control plane secures with mutual TLS: the cluster's
   * transport_socket names a certificate provider of the bootstrap, whose files an agent rotates.
   */
  static ManagedChannel paymentsChannel() {
    return Grpc.newChannelBuilder(XdsClusterPolicy.target("payments"), XdsClusterCredentials.create())
        .build();
  }
}
// docs/tls.md:end
