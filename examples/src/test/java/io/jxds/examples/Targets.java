package io.jxds.examples;

// docs/configuration.md:begin
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.jxds.balancer.XdsClusterPolicy;

final class Targets {
  /** Service "payments": its listener's routes pick each call's cluster, as with grpc-xds. */
  static ManagedChannel paymentsService() {
    return Grpc.newChannelBuilder("xds:///payments", InsecureChannelCredentials.create())
        .build(); // then: PaymentsGrpc.newBlockingStub(channel), as with any channel
  }

  /** The same through jxds's own scheme, which grpc-xds on the class path cannot take. */
  static ManagedChannel paymentsServiceJxds() {
    return Grpc.newChannelBuilder("jxds:///payments", InsecureChannelCredentials.create()).build();
  }

  /** Istio: istiod names the listener HOST:PORT. */
  static ManagedChannel istioService() {
    String target = "xds:///echo.default.svc.cluster.local:8080";
    return Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build();
  }

  /** No listener: cluster "payments", per the bootstrap; its endpoints the control plane picks. */
  static ManagedChannel paymentsChannel() {
    return Grpc.newChannelBuilder(XdsClusterPolicy.target("payments"), InsecureChannelCredentials.create())
        .build();
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
