package io.jxds.examples;

// docs/configuration.md:begin
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.jxds.balancer.XdsClusterPolicy;

final class Targets {
  /** A channel whose endpoints the control plane picks: cluster "payments", per the bootstrap. */
  static ManagedChannel paymentsChannel() {
    return Grpc.newChannelBuilder(XdsClusterPolicy.target("payments"), InsecureChannelCredentials.create())
        .build(); // then: PaymentsGrpc.newBlockingStub(channel), as with any channel
  }

  /** An Istio cluster: its name holds '|', which target() percent-encodes (%7C) for the URI. */
  static ManagedChannel echoChannel() {
    String cluster = "outbound|8080||echo.default.svc.cluster.local"; // outbound|PORT|SUBSET|HOST
    return Grpc.newChannelBuilder(XdsClusterPolicy.target(cluster), InsecureChannelCredentials.create()).build();
  }

  /** The same policy on a target of your own, through the service config. */
  static ManagedChannel paymentsChannel(String target) {
    return Grpc.newChannelBuilder(target, InsecureChannelCredentials.create())
        .defaultServiceConfig(XdsClusterPolicy.serviceConfig("payments"))
        .disableServiceConfigLookUp()
        .build();
  }

  /** Ring hash or maglev: each request's hash is its x-user-id header's. */
  static ManagedChannel cartsChannel(ChannelCredentials creds) {
    return Grpc.newChannelBuilder(XdsClusterPolicy.target("carts"), creds)
        .defaultServiceConfig(XdsClusterPolicy.serviceConfig("carts", "x-user-id"))
        .disableServiceConfigLookUp()
        .build();
  }
}
// docs/configuration.md:end
