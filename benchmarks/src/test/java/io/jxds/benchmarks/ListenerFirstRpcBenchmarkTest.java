package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.RecordedRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sets up {@link ListenerFirstRpcBenchmark} and runs each operation a few times: never a timed run.
 * Both reach the backend on the one ADS stream the setup opened; a channel's watches re-request
 * their retained names (ARCHITECTURE.md, "The cache outlives the watch"), but nothing new: every
 * later request repeats one the server already answered.
 */
class ListenerFirstRpcBenchmarkTest {
  @Test
  void bothFirstRpcsReachTheBackendOnTheOpenStreamAskingNothingNew() throws Exception {
    ListenerFirstRpcBenchmark bench = new ListenerFirstRpcBenchmark();
    bench.setUp();
    try {
      FakeAdsServer ads = bench.ads();
      assertThat(ads.streams().count()).isEqualTo(1);
      assertThat(ads.streams().subscribedNames(FakeAdsServer.LISTENER_TYPE_URL))
          .containsExactly(ListenerFirstRpcBenchmark.LISTENER);
      int requests = ads.requests().all().size();
      for (int i = 0; i < 3; i++) {
        assertThat(bench.clusterFirstRpc().getValue().toByteArray()).containsExactly(1);
        assertThat(bench.listenerFirstRpc().getValue().toByteArray()).containsExactly(1);
      }
      assertThat(ads.streams().count()).isEqualTo(1);
      List<RecordedRequest> all = ads.requests().all();
      assertThat(all.subList(requests, all.size()))
          .extracting(RecordedRequest::kind).containsOnly(RecordedRequest.Kind.DUPLICATE);
    } finally {
      bench.tearDown();
    }
  }
}
