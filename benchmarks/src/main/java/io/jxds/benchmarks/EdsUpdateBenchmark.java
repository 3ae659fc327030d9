package io.jxds.benchmarks;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.ResolvedAddresses;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Status;
import io.jxds.api.ResourceTypes;
import io.jxds.balancer.internal.eds.EdsBalancer;
import io.jxds.balancer.internal.eds.EdsConfig;
import io.jxds.testing.EndpointsBuilder;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.TestRandom;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * docs/benchmarks.md: the time from an EDS {@code DiscoveryResponse} reaching the client to
 * the new picker being handed to the channel ({@code Helper.updateBalancingState}), on real parts
 * only:
 *
 * <ul>
 *   <li>a real {@code DefaultXdsClient} fed through {@link InMemoryAdsFeed} (the in-memory ADS
 *       call the client benchmarks already use; no network): unpack, validate into an {@code
 *       EndpointsUpdate}, compare with the cached value, cache, notify, ACK;
 *   <li>a real {@link EdsBalancer} (so {@code PriorityBalancer}, {@code LocalityBalancer},
 *       {@code EndpointBalancer} and {@code ClusterRequestPicker}), whose endpoints watcher runs on
 *       the helper's SynchronizationContext, which drains on the calling thread;
 *   <li>a {@link FakeLbHelper#readyOnStart()} channel stand-in: a new subchannel reports READY right
 *       after it is started, so an invocation ends with the picker that serves every endpoint of
 *       the new assignment.
 * </ul>
 *
 * <p>Everything happens on the benchmark thread inside {@code feed.respond(...)}, so the average
 * time per call is the update latency. Two prepared responses (versions 1 and 2) alternate, so
 * every call is a real change:
 *
 * <ul>
 *   <li>{@code weights}: same endpoints, every endpoint's {@code load_balancing_weight} changes
 *       (1 + i % 10 against 10 - i % 10): no connection is touched, every picker is rebuilt.
 *   <li>{@code halfReplaced}: every other endpoint of each locality has a new address: half the
 *       subchannels are shut down, as many created (and READY), every picker is rebuilt.
 * </ul>
 *
 * <p>Endpoints are spread over localities of at most 1 000 (10 000 endpoints = 10 localities),
 * one priority. The responses are parsed once at setup: the client unpacks each {@code Any} with
 * the message's parser (no cached unpack), so reusing the objects costs the client the full
 * decode every time; the gRPC transport's own deserialisation of the wire bytes is not included
 * (see {@code ResponseHandlingBenchmark} for parse costs).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EdsUpdateBenchmark {
  static final String CLUSTER = "bench-cluster";
  static final String EDS_SERVICE = "bench-eds";
  static final int PER_LOCALITY = 1000;
  static final int PORT = 8080;

  @Param({"10", "1000", "10000"})
  public int endpoints;

  @Param({"weights", "halfReplaced"})
  public String change;

  FakeLbHelper helper;
  InMemoryAdsFeed feed;
  EdsBalancer balancer;
  DiscoveryResponse[] responses;
  int next;

  @Setup(Level.Trial)
  public void setUp() {
    responses = new DiscoveryResponse[] {response(0), response(1)};
    helper = FakeLbHelper.forBenchmarks(true);
    feed = new InMemoryAdsFeed();
    balancer = startBalancer(helper, feed);
    feed.ready();
    // Serve version 2 first, so that the first measured call (version 1) is a change.
    feed.respond(responses[1]);
    if (helper.state() != ConnectivityState.READY || helper.subchannelCount() != endpoints) {
      throw new IllegalStateException("setup: state " + helper.state() + ", "
          + helper.subchannelCount() + " subchannels, expected READY and " + endpoints);
    }
  }

  /** A real EdsBalancer on {@code helper}, watching {@value #EDS_SERVICE} through {@code feed}'s client. */
  static EdsBalancer startBalancer(FakeLbHelper helper, InMemoryAdsFeed feed) {
    EdsBalancer balancer = new EdsBalancer(helper, feed.client(), TestRandom.seeded(1), TestRandom.seeded(2));
    // No request limit: a benchmark picks without ever opening a stream, and each admitted pick
    // holds a circuit-breaker count until a sweep (on a clock that never moves here) gives it back.
    EdsConfig config = new EdsConfig(CLUSTER, EDS_SERVICE, Long.MAX_VALUE, Duration.ofSeconds(10),
        Duration.ofMinutes(15));
    helper.run(() -> {
      Status status = balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
          .setAddresses(List.of())
          .setLoadBalancingPolicyConfig(config)
          .build());
      if (!status.isOk()) {
        throw new IllegalStateException("EdsBalancer refused its config: " + status);
      }
    });
    return balancer;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    helper.run(balancer::shutdown);
    feed.close();
  }

  /** Hands the client the other response; returns the picker the channel holds afterwards. */
  @Benchmark
  public SubchannelPicker update() {
    feed.respond(responses[next++ & 1]);
    return helper.picker();
  }

  /** The response of {@code variant} 0 or 1 (version {@code variant + 1}). */
  DiscoveryResponse response(int variant) {
    boolean weights = switch (change) {
      case "weights" -> true;
      case "halfReplaced" -> false;
      default -> throw new IllegalArgumentException("change: " + change);
    };
    EndpointsBuilder cla = XdsResources.endpoints(EDS_SERVICE);
    for (int l = 0; l * PER_LOCALITY < endpoints; l++) {
      int first = l * PER_LOCALITY;
      int last = Math.min(endpoints, first + PER_LOCALITY);
      cla.locality("region", "zone-" + l, "", loc -> {
        loc.weight(10);
        for (int i = first; i < last; i++) {
          if (weights) {
            loc.endpoint(ip(i, false), PORT, HealthStatus.HEALTHY, weight(i, variant));
          } else {
            loc.endpoint(ip(i, variant == 1 && i % 2 == 1), PORT, HealthStatus.HEALTHY, 1);
          }
        }
      });
    }
    String version = Integer.toString(variant + 1);
    return DiscoveryResponse.newBuilder()
        .setTypeUrl(ResourceTypes.ENDPOINTS_TYPE_URL)
        .setVersionInfo(version)
        .setNonce("nonce-" + version)
        .addResources(cla.buildAny())
        .build();
  }

  /** Endpoint {@code i}'s weight in {@code variant}: never the same in both. */
  static long weight(int i, int variant) {
    return variant == 0 ? 1 + i % 10 : 10 - i % 10;
  }

  /** Endpoint {@code i}'s address; {@code replaced} moves it to another /8. */
  static String ip(int i, boolean replaced) {
    return (replaced ? "11." : "10.") + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255);
  }
}
