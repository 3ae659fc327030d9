package io.jxds.examples;

// README.md:begin
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.protobuf.services.HealthStatusManager;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.XdsResources;
import java.util.List;
import java.util.concurrent.TimeUnit;

public final class QuickStart {
  public static void main(String[] args) throws Exception {
    // 1. A backend: any gRPC server; this one serves gRPC's health service.
    Server backend = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
        .addService(new HealthStatusManager().getHealthService())
        .build()
        .start();

    // 2. A control plane: service "payments" (a listener, and its routes sending every RPC to
    //    cluster "payments"), and the cluster, whose one endpoint is the backend.
    FakeAdsServer controlPlane = FakeAdsServer.loopback().start();
    controlPlane.setListeners(XdsResources.listener("payments").rdsRouteConfig("payments-routes").build());
    controlPlane.setRoutes(XdsResources.route("payments-routes")
        .virtualHost("payments", List.of("*"), "payments").build());
    controlPlane.setClusters(XdsResources.cluster("payments").build());
    controlPlane.setEndpoints(XdsResources.endpoints("payments")
        .locality("us-east1", "us-east1-b", "", l -> l.endpoint("127.0.0.1", backend.getPort(), HEALTHY))
        .build());

    // 3. The bootstrap: where the control plane is, and who this client is.
    System.setProperty("jxds.bootstrapConfig", """
        {
          "xds_servers": [{"server_uri": "%s", "channel_creds": [{"type": "insecure"}]}],
          "node": {"id": "quick-start"}
        }""".formatted(controlPlane.serverUri()));

    // 4. A channel to service "payments": the control plane decides where its RPCs go.
    ManagedChannel channel = Grpc.newChannelBuilder("xds:///payments", InsecureChannelCredentials.create()).build();
    HealthCheckResponse response = HealthGrpc.newBlockingStub(channel)
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .check(HealthCheckRequest.getDefaultInstance());
    System.out.println("payments answered: " + response.getStatus());

    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    controlPlane.stop();
    backend.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
// README.md:end
