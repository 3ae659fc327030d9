package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.testing.FakeAdsServer;
import org.junit.jupiter.api.Test;

/** Sets up {@link RoutedCallBenchmark} and runs each operation a few times: never a timed run. */
class RoutedCallBenchmarkTest {
  @Test
  void everyChannelReachesTheBackendThroughItsRoutes() throws Exception {
    RoutedCallBenchmark bench = new RoutedCallBenchmark();
    bench.setUp();
    try {
      FakeAdsServer ads = bench.ads();
      assertThat(ads.streams().subscribedNames(FakeAdsServer.LISTENER_TYPE_URL))
          .containsExactlyInAnyOrder("one", "ten");
      assertThat(ads.streams().subscribedNames(FakeAdsServer.CLUSTER_TYPE_URL))
          .contains("c", "c1", "c9", "stable", "canary");
      for (int i = 0; i < 3; i++) {
        assertThat(bench.clusterCall().getValue().toByteArray()).containsExactly(1);
        assertThat(bench.oneRouteCall().getValue().toByteArray()).containsExactly(1);
        assertThat(bench.tenHeaderRoutesCall().getValue().toByteArray()).containsExactly(1);
      }
    } finally {
      bench.tearDown();
    }
  }
}
