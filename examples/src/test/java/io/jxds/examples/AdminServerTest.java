package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.status.v3.ClientConfig;
import io.envoyproxy.envoy.service.status.v3.ClientStatusDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.status.v3.ClientStatusRequest;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The admin server of docs/operating.md ({@link AdminServer}) answers CSDS with what a client holds. */
class AdminServerTest {
  @RegisterExtension final XdsTestBed bed = new XdsTestBed();

  @Test
  void csdsReportsTheClustersAClientWatches() throws Exception {
    bed.ads().setClusters(XdsResources.cluster("payments").build());
    FutureWatcher<ClusterUpdate> watcher = new FutureWatcher<>();
    Server admin = AdminServer.start(
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0), InsecureServerCredentials.create()));
    try (DefaultXdsClient client =
        XdsClientBuilder.forTarget(bed.ads().serverUri(), InsecureChannelCredentials.create())
            .node(Node.newBuilder().setId("csds-example").build())
            .build()) {
      client.watchCluster("payments", watcher, Runnable::run);
      watcher.value.get(10, TimeUnit.SECONDS);

      List<ClientConfig> configs = ClientStatusDiscoveryServiceGrpc.newBlockingStub(bed.track(
              Grpc.newChannelBuilderForAddress("127.0.0.1", admin.getPort(), InsecureChannelCredentials.create())
                  .build()))
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .fetchClientStatus(ClientStatusRequest.getDefaultInstance())
          .getConfigList();

      assertThat(configs).filteredOn(c -> c.getNode().getId().equals("csds-example")).singleElement()
          .satisfies(c -> assertThat(c.getGenericXdsConfigsList()).singleElement()
              .satisfies(resource -> assertThat(resource.getName()).isEqualTo("payments")));
    } finally {
      admin.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
