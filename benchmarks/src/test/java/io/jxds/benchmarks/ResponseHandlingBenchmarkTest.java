package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Smoke test: every benchmark method runs on a small state and does real work (no timing). */
class ResponseHandlingBenchmarkTest {
  @Test
  void handlersNotifyEveryWatcherAndAck() throws Exception {
    ResponseHandlingBenchmark.ClientState s = new ResponseHandlingBenchmark.ClientState();
    s.clusters = 200;
    s.endpoints = 2500;
    s.setUp();
    try {
      ResponseHandlingBenchmark b = new ResponseHandlingBenchmark();
      long before = s.updates;
      b.cdsHandle(s);
      assertThat(s.updates - before).isEqualTo(200); // every cluster changed
      assertThat(s.feed.lastRequest().getResourceNamesCount()).isEqualTo(200);
      assertThat(s.feed.lastRequest().hasErrorDetail()).isFalse();
      b.cdsHandle(s);
      assertThat(s.updates - before).isEqualTo(400);
      long mid = s.updates;
      b.edsHandle(s);
      b.edsHandle(s);
      assertThat(s.updates - mid).isEqualTo(2);
      assertThat(s.feed.lastRequest().hasErrorDetail()).isFalse();
      assertThat(b.cdsBaselineUnpack(s)).isEqualTo(b.cdsBaselineParse(s));
      assertThat(b.cdsBaselineParse(s)).isPositive();
      assertThat(b.edsBaselineUnpack(s)).isEqualTo(3); // 2500 endpoints in localities of 1000
      assertThat(b.edsBaselineParse(s)).isEqualTo(3);
    } finally {
      s.tearDown();
    }
  }

  @Test
  void heapFootprintRunsAndCachesEverything() throws Exception {
    // perCluster/perEndpoint throw unless every resource ended up cached; the figure itself is
    // only meaningful at N = 10 000 on a quiet JVM, so here it just has to be a sane number.
    assertThat(HeapFootprint.perCluster(500)).isLessThan(1 << 20);
    assertThat(HeapFootprint.perEndpoint(2000)).isLessThan(1 << 20);
  }
}
