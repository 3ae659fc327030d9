package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.Subchannel;
import io.grpc.LoadBalancer.SubchannelPicker;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Sets up {@link EdsUpdateBenchmark} and calls it a few times: never a timed run. */
class EdsUpdateBenchmarkTest {

  @ParameterizedTest
  @CsvSource({
    "10, weights", "1000, weights", "10000, weights",
    "10, halfReplaced", "1000, halfReplaced", "10000, halfReplaced"
  })
  void everyCallHandsTheChannelANewReadyPicker(int endpoints, String change) {
    EdsUpdateBenchmark bench = start(endpoints, change);
    try {
      SubchannelPicker before = bench.helper.picker();
      long updatesBefore = bench.helper.pickerUpdates();
      SubchannelPicker first = bench.update();
      SubchannelPicker second = bench.update();
      assertThat(first).isNotNull().isNotSameAs(before).isNotSameAs(second);
      assertThat(bench.helper.pickerUpdates()).isGreaterThanOrEqualTo(updatesBefore + 2);
      assertThat(bench.helper.state()).isEqualTo(ConnectivityState.READY);
      assertThat(bench.helper.subchannelCount()).isEqualTo(endpoints);
      // The client ACKed each version.
      assertThat(bench.feed.lastRequest().getVersionInfo()).isEqualTo("2");
      assertThat(bench.feed.lastRequest().hasErrorDetail()).isFalse();
    } finally {
      bench.tearDown();
    }
  }

  @Test
  void halfReplacedServesExactlyTheNewAddresses() {
    EdsUpdateBenchmark bench = start(1000, "halfReplaced");
    try {
      // Version 1: every endpoint at 10.x.
      Set<String> hosts = hosts(bench.update(), 3000);
      assertThat(hosts).hasSize(1000).allMatch(h -> h.startsWith("10."));
      // Version 2: the odd endpoints moved to 11.x, and only they.
      hosts = hosts(bench.update(), 3000);
      assertThat(hosts).hasSize(1000)
          .contains(EdsUpdateBenchmark.ip(1, true), EdsUpdateBenchmark.ip(999, true),
              EdsUpdateBenchmark.ip(0, false), EdsUpdateBenchmark.ip(998, false))
          .doesNotContain(EdsUpdateBenchmark.ip(1, false), EdsUpdateBenchmark.ip(999, false));
      assertThat(hosts.stream().filter(h -> h.startsWith("11."))).hasSize(500);
    } finally {
      bench.tearDown();
    }
  }

  @Test
  void weightChangeKeepsSubchannelsAndMovesTraffic() {
    EdsUpdateBenchmark bench = start(10, "weights");
    try {
      // Version 1: endpoint i weighs 1 + i, so endpoint 9 gets about ten times endpoint 0's share.
      Map<String, Integer> v1 = counts(bench.update(), 5500);
      Set<Subchannel> subchannels = subchannels(bench.helper.picker(), 200);
      assertThat(v1.get(EdsUpdateBenchmark.ip(9, false)))
          .isGreaterThan(5 * v1.get(EdsUpdateBenchmark.ip(0, false)));
      // Version 2: weights reversed, same subchannels.
      Map<String, Integer> v2 = counts(bench.update(), 5500);
      assertThat(v2.get(EdsUpdateBenchmark.ip(0, false)))
          .isGreaterThan(5 * v2.get(EdsUpdateBenchmark.ip(9, false)));
      assertThat(subchannels(bench.helper.picker(), 200)).isEqualTo(subchannels).hasSize(10);
    } finally {
      bench.tearDown();
    }
  }

  private static EdsUpdateBenchmark start(int endpoints, String change) {
    EdsUpdateBenchmark bench = new EdsUpdateBenchmark();
    bench.endpoints = endpoints;
    bench.change = change;
    bench.setUp();
    return bench;
  }

  private static Set<String> hosts(SubchannelPicker picker, int picks) {
    return counts(picker, picks).keySet();
  }

  private static Map<String, Integer> counts(SubchannelPicker picker, int picks) {
    Map<String, Integer> counts = new HashMap<>();
    for (Subchannel s : pick(picker, picks)) {
      InetSocketAddress address = (InetSocketAddress) s.getAllAddresses().get(0).getAddresses().get(0);
      counts.merge(address.getHostString(), 1, Integer::sum);
    }
    return counts;
  }

  private static Set<Subchannel> subchannels(SubchannelPicker picker, int picks) {
    return new HashSet<>(pick(picker, picks));
  }

  private static List<Subchannel> pick(SubchannelPicker picker, int picks) {
    List<Subchannel> picked = new ArrayList<>();
    for (int i = 0; i < picks; i++) {
      PickResult result = picker.pickSubchannel(PickBenchmark.ARGS);
      assertThat(result.getStatus().isOk()).as("pick %s", result).isTrue();
      picked.add(result.getSubchannel());
    }
    return picked;
  }
}
