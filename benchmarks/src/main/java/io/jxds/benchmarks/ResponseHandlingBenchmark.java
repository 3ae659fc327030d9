package io.jxds.benchmarks;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Status;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.model.ClusterUpdate;
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
 * What handling one big response costs the client, against the floor any Java xDS client pays
 * for the same bytes: {@code DiscoveryResponse.parseFrom} plus unpacking every {@code Any} (parseFrom
 * alone copies the resources' bytes without parsing them). Two baselines:
 * {@code *BaselineUnpack} uses {@code Any.unpack(Class)}, the obvious way, which also pays a
 * reflective {@code getDefaultInstance} lookup per call (about as much as parsing a small Cluster);
 * {@code *BaselineParse} parses each {@code Any}'s value with the message's parser, the least work
 * possible, and the stricter yardstick.
 *
 * <p>{@code *Handle}: parse, then the full client path — unpack, validate into the model, compare
 * with the cached value, cache, notify one watcher per resource (direct executor), rebuild the
 * status snapshot, and build the ACK. Two versions alternate so every call is a real change.
 * Target (docs/benchmarks.md): {@code *Handle} ≤ 2 × {@code *Baseline}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ResponseHandlingBenchmark {

  /** One client watching {@code clusters} clusters and one 10 000-endpoint assignment. */
  @State(Scope.Thread)
  public static class ClientState {
    @Param({"10000"})
    public int clusters;

    @Param({"10000"})
    public int endpoints;

    byte[][] cds;
    byte[][] eds;
    InMemoryAdsFeed feed;
    long updates;
    int flip;

    @Setup(Level.Trial)
    public void setUp() throws InvalidProtocolBufferException {
      cds = new byte[][] {ResponseData.clusters(clusters, "1", "a"), ResponseData.clusters(clusters, "2", "b")};
      eds = new byte[][] {ResponseData.endpoints("big", endpoints, "1", 8080), ResponseData.endpoints("big", endpoints,
          "2", 8081)};
      feed = new InMemoryAdsFeed();
      ResourceWatcher<ClusterUpdate> clusterWatcher = counting();
      for (int i = 0; i < clusters; i++) {
        feed.client().watchCluster(ResponseData.clusterName(i), clusterWatcher, Runnable::run);
      }
      feed.client().watchEndpoints("big", counting(), Runnable::run);
      feed.ready();
      // Warm the cache so that every measured call replaces a value.
      feed.respond(DiscoveryResponse.parseFrom(cds[1]));
      feed.respond(DiscoveryResponse.parseFrom(eds[1]));
    }

    private <T> ResourceWatcher<T> counting() {
      return new ResourceWatcher<>() {
        @Override
        public void onUpdate(T value) {
          updates++;
        }

        @Override
        public void onResourceDoesNotExist(String resourceName) {}

        @Override
        public void onError(Status error) {}
      };
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      feed.close();
    }
  }

  @Benchmark
  public long cdsHandle(ClientState s) throws InvalidProtocolBufferException {
    s.feed.respond(DiscoveryResponse.parseFrom(s.cds[s.flip++ & 1]));
    return s.updates;
  }

  @Benchmark
  public long cdsBaselineUnpack(ClientState s) throws InvalidProtocolBufferException {
    DiscoveryResponse r = DiscoveryResponse.parseFrom(s.cds[s.flip++ & 1]);
    long sum = 0;
    for (Any any : r.getResourcesList()) {
      sum += any.unpack(Cluster.class).getName().length();
    }
    return sum;
  }

  @Benchmark
  public long cdsBaselineParse(ClientState s) throws InvalidProtocolBufferException {
    DiscoveryResponse r = DiscoveryResponse.parseFrom(s.cds[s.flip++ & 1]);
    long sum = 0;
    for (Any any : r.getResourcesList()) {
      sum += Cluster.parser().parseFrom(any.getValue()).getName().length();
    }
    return sum;
  }

  @Benchmark
  public long edsHandle(ClientState s) throws InvalidProtocolBufferException {
    s.feed.respond(DiscoveryResponse.parseFrom(s.eds[s.flip++ & 1]));
    return s.updates;
  }

  @Benchmark
  public long edsBaselineUnpack(ClientState s) throws InvalidProtocolBufferException {
    DiscoveryResponse r = DiscoveryResponse.parseFrom(s.eds[s.flip++ & 1]);
    long sum = 0;
    for (Any any : r.getResourcesList()) {
      sum += any.unpack(ClusterLoadAssignment.class).getEndpointsCount();
    }
    return sum;
  }

  @Benchmark
  public long edsBaselineParse(ClientState s) throws InvalidProtocolBufferException {
    DiscoveryResponse r = DiscoveryResponse.parseFrom(s.eds[s.flip++ & 1]);
    long sum = 0;
    for (Any any : r.getResourcesList()) {
      sum += ClusterLoadAssignment.parser().parseFrom(any.getValue()).getEndpointsCount();
    }
    return sum;
  }
}
