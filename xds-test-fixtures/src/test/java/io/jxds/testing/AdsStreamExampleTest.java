package io.jxds.testing;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

// docs/testing.md:begin
class AdsStreamExampleTest {
  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.inProcess();

  @Test
  void clientAcksTheClustersItIsSent() throws Exception {
    ads.server().setClusters(XdsResources.cluster("payments").build());

    // The xDS client under test goes here: this one is a bare ADS stream that ACKs once.
    ManagedChannel channel = ads.server().newClientChannel();
    BlockingQueue<DiscoveryResponse> responses = new LinkedBlockingQueue<>();
    StreamObserver<DiscoveryRequest> requests =
        AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(
            new StreamObserver<>() {
              @Override public void onNext(DiscoveryResponse r) { responses.add(r); }
              @Override public void onError(Throwable t) {}
              @Override public void onCompleted() {}
            });
    DiscoveryRequest.Builder request =
        DiscoveryRequest.newBuilder().setTypeUrl(CLUSTER_TYPE_URL).addResourceNames("payments");
    requests.onNext(request.build());
    DiscoveryResponse response = responses.poll(5, TimeUnit.SECONDS);
    requests.onNext(
        request.setVersionInfo(response.getVersionInfo()).setResponseNonce(response.getNonce())
            .build());

    RecordedRequest ack = ads.server().requests().awaitAck(CLUSTER_TYPE_URL, "1", Duration.ofSeconds(5));
    assertThat(ack.resourceNames()).containsExactly("payments");
    assertThat(ads.server().requests().lastNack(CLUSTER_TYPE_URL)).isEmpty();
    channel.shutdownNow();
  }
}
// docs/testing.md:end
