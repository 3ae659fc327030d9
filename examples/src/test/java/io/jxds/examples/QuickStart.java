package io.jxds.examples;

// README:begin
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.jxds.balancer.XdsClusterPolicy;

final class QuickStart {
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
}
// README:end
