package io.jxds.examples;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.InsecureChannelCredentials;
import io.grpc.Status;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a control-plane author writes: serve the resources your control plane generates from a
 * FakeAdsServer, and check that a real xDS client (jxds) accepts them. Swap the builder call for
 * your own generator.
 */
// docs/testing.md:begin
class ControlPlaneAuthorExampleTest {
  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.loopback();

  @Test
  void jxdsAcceptsTheClusterMyControlPlaneGenerates() throws Exception {
    ads.server().setClusters(XdsResources.cluster("payments").edsServiceName("payments-eds").build());

    try (DefaultXdsClient client =
        XdsClientBuilder.forTarget(ads.server().serverUri(), InsecureChannelCredentials.create()).build()) {
      CompletableFuture<ClusterUpdate> cluster = new CompletableFuture<>();
      client.watchCluster("payments", completing(cluster), Runnable::run);

      assertThat(cluster.get(5, TimeUnit.SECONDS).edsServiceName()).isEqualTo("payments-eds");
      assertThat(ads.server().requests().awaitAck(CLUSTER_TYPE_URL, "1", Duration.ofSeconds(5)).resourceNames())
          .containsExactly("payments");
    }
  }

  private static <T> ResourceWatcher<T> completing(CompletableFuture<T> future) {
    return new ResourceWatcher<>() {
      @Override public void onUpdate(T value) { future.complete(value); }
      @Override public void onResourceDoesNotExist(String name) {
        future.completeExceptionally(new AssertionError(name));
      }
      @Override public void onError(Status error) { future.completeExceptionally(error.asException()); }
    };
  }
}
// docs/testing.md:end
