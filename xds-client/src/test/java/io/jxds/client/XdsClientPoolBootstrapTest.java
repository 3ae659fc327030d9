package io.jxds.client;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.client.RecordingWatcher.DoesNotExist;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.client.bootstrap.BootstrapLoader;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.FakeClock;
import io.jxds.testing.Poll;
import io.jxds.testing.TestRandom;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Pooled clients configured by the bootstrap's jxds knobs, against FakeAdsServer on loopback. */
class XdsClientPoolBootstrapTest {
  private static final Duration WAIT = Duration.ofSeconds(5);

  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.loopback();

  private final FakeClock clock = new FakeClock();

  private XdsClientPool pool(String bootstrap) {
    return new XdsClientPool(
        new BootstrapLoader(Map.of("jxds.bootstrapConfig", bootstrap)::get, k -> null),
        clock,
        clock.clock(),
        TestRandom.seeded(7));
  }

  @Test
  void zeroRetentionClosesTheStreamWhenTheLastLeaseIsReleased() throws Exception {
    ads.server().setClusters(XdsResources.cluster("a").build());
    XdsClientPool pool = pool(ads.server().bootstrap().jxdsOption("client_retention", "0s").build());
    XdsClientPool.Lease lease = pool.acquire();
    RecordingWatcher<TestCluster> w = new RecordingWatcher<>();
    lease.client().watch(TestTypes.CLUSTER, "a", w, Runnable::run);
    ads.server().requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);
    ads.server().streams().awaitCount(1, WAIT);
    assertThat(ads.server().requests().lastAck(CLUSTER_TYPE_URL).orElseThrow().raw().getNode().getId())
        .isEqualTo("jxds-test-node");

    lease.close();
    ads.server().streams().awaitCount(0, WAIT);
    assertThat(((DefaultXdsClient) lease.client()).isClosed()).isTrue();
  }

  @Test
  void resourceTimeoutComesFromTheBootstrap() throws Exception {
    // No cluster at all: the server never answers, so the timer decides (an answer lacking the
    // name would tell the client at once that it does not exist).
    XdsClientPool pool = pool(ads.server().bootstrap().jxdsOption("resource_timeout", "2s").build());
    try (XdsClientPool.Lease lease = pool.acquire()) {
      RecordingWatcher<TestCluster> ghost = new RecordingWatcher<>();
      lease.client().watch(TestTypes.CLUSTER, "ghost", ghost, Runnable::run);
      ads.server().requests().await(CLUSTER_TYPE_URL, r -> r.resourceNames().contains("ghost"), WAIT);
      Poll.until("timer armed", () -> clock.numPendingTasks() == 1);
      clock.forwardTime(1999, TimeUnit.MILLISECONDS);
      assertThat(ghost.events()).isEmpty();
      clock.forwardTime(1, TimeUnit.MILLISECONDS);
      // The timer hands over to the client's sync context, which a transport thread may be draining.
      Poll.until("does not exist", () -> !ghost.events().isEmpty());
      assertThat(ghost.events()).containsExactly(new DoesNotExist("ghost"));
    } finally {
      pool.closeAll();
    }
  }
}
