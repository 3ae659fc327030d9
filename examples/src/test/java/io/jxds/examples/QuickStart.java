package io.jxds.examples;

// README:begin
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.util.List;
import java.util.Map;

final class QuickStart {
  /** A channel whose endpoints the control plane picks: cluster "payments", per the bootstrap. */
  static ManagedChannel paymentsChannel() {
    return Grpc.newChannelBuilder("xds-cluster:///payments", InsecureChannelCredentials.create())
        .build(); // then: PaymentsGrpc.newBlockingStub(channel), as with any channel
  }

  /** The same policy on a target of your own, through the service config. */
  static ManagedChannel paymentsChannel(String target) {
    Map<String, ?> serviceConfig = Map.of("loadBalancingConfig",
        List.of(Map.of("xds_cluster", Map.of("cluster", "payments", "failoverTimeout", "5s"))));
    return Grpc.newChannelBuilder(target, InsecureChannelCredentials.create())
        .defaultServiceConfig(serviceConfig).disableServiceConfigLookUp().build();
  }
}
// README:end
