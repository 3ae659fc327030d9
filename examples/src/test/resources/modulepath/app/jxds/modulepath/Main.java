package jxds.modulepath;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import io.jxds.api.ResourceTypes;
import io.jxds.api.XdsClient;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.client.XdsClientBuilder;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.XdsResources;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Routes one RPC through {@code xds-cluster:///a}: FakeAdsServer is both the control plane and,
 * as cluster a's only endpoint, the server the RPC (an ADS stream) reaches. Prints the module
 * jxds's balancer runs in and the answer, and exits 0 only when the RPC was answered.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    Module balancer = XdsClusterPolicy.class.getModule();
    System.out.println("module " + balancer.getName() + " named=" + balancer.isNamed()
        + " automatic=" + balancer.getDescriptor().isAutomatic());
    try (FakeAdsServer controlPlane = FakeAdsServer.loopback().start()) {
      controlPlane.setClusters(XdsResources.cluster("a").build());
      controlPlane.setEndpoints(XdsResources.endpoints("a")
          .locality("r", "z", "s", l -> l.endpoint("127.0.0.1", controlPlane.port(), HealthStatus.HEALTHY))
          .build());
      ManagedChannel adsChannel = controlPlane.newClientChannel();
      try (XdsClient client = XdsClientBuilder.forChannel(adsChannel).build()) {
        ManagedChannel channel = Grpc
            .newChannelBuilder(XdsClusterPolicy.target("a"), InsecureChannelCredentials.create())
            .setNameResolverArg(XdsClusterPolicy.XDS_CLIENT_ARG, client)
            .build();
        CompletableFuture<DiscoveryResponse> answer = new CompletableFuture<>();
        StreamObserver<DiscoveryRequest> requests = AggregatedDiscoveryServiceGrpc.newStub(channel)
            .streamAggregatedResources(new StreamObserver<>() {
              @Override
              public void onNext(DiscoveryResponse value) {
                answer.complete(value);
              }

              @Override
              public void onError(Throwable t) {
                answer.completeExceptionally(t);
              }

              @Override
              public void onCompleted() {}
            });
        requests.onNext(DiscoveryRequest.newBuilder()
            .setTypeUrl(ResourceTypes.CLUSTER.typeUrl())
            .addResourceNames("a")
            .build());
        DiscoveryResponse response = answer.get(30, TimeUnit.SECONDS);
        System.out.println("routed: " + response.getResourcesCount() + " resource(s) of " + response.getTypeUrl());
        requests.onCompleted();
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      } finally {
        adsChannel.shutdownNow();
      }
    }
  }
}
