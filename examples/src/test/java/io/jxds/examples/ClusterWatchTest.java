package io.jxds.examples;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.api.model.ClusterUpdate;
import io.jxds.client.DefaultXdsClient;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The two ways to a client that docs/xds-client.md shows ({@link ClusterWatch}) both deliver the cluster. */
class ClusterWatchTest {
  @RegisterExtension final XdsTestBed bed = new XdsTestBed(); // the shared client's bootstrap, per test

  @BeforeEach
  void serveCluster() {
    bed.ads().setClusters(XdsResources.cluster("payments").edsServiceName("payments-eds").build());
  }

  @Test
  void watchOnTheSharedClientGetsTheCluster() throws Exception {
    FutureWatcher<ClusterUpdate> watcher = new FutureWatcher<>();

    try (ClusterWatch watch = new ClusterWatch("payments", watcher, Runnable::run)) {
      assertThat(watcher.value.get(10, TimeUnit.SECONDS).edsServiceName()).isEqualTo("payments-eds");
    }
  }

  @Test
  void clientOfYourOwnSendsItsNodeAndGetsTheCluster() throws Exception {
    FutureWatcher<ClusterUpdate> watcher = new FutureWatcher<>();

    try (DefaultXdsClient client = ClusterWatch.clientOf(bed.ads().serverUri())) {
      client.watchCluster("payments", watcher, Runnable::run);

      assertThat(watcher.value.get(10, TimeUnit.SECONDS).edsServiceName()).isEqualTo("payments-eds");
      assertThat(bed.ads().requests().awaitAck(CLUSTER_TYPE_URL, "1", Duration.ofSeconds(10)).raw().getNode().getId())
          .isEqualTo("my-app");
    }
  }
}
