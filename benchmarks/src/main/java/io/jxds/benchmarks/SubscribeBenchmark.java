package io.jxds.benchmarks;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
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
 * What subscribing {@code n} clusters costs a state-of-the-world client on a ready stream.
 * {@code oneTurn}: the watches are made inside one turn of the client's sync context (a watcher
 * callback on a direct executor, as many channels' watches queued while the client is busy);
 * batching sends one request for all of them. {@code separateTurns}: one watch per turn from the
 * caller's thread, one request each (each listing every name so far: O(n²) names on the wire).
 * {@code baseline} builds one request naming all {@code n} clusters, the floor of any SotW client.
 * Each returns the requests the client sent; {@link InMemoryAdsFeed#namesSent()} counts the names.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(1)
public class SubscribeBenchmark {

  /** A fresh client with a ready stream and one cached cluster. */
  @State(Scope.Thread)
  public static class Client {
    @Param({"10000"})
    public int n;

    InMemoryAdsFeed feed;
    long requestsBefore;
    long namesBefore;

    @Setup(Level.Invocation)
    public void setUp() {
      feed = new InMemoryAdsFeed();
      feed.client().watchCluster("seed", ignoring(), Runnable::run);
      feed.ready();
      feed.respond(DiscoveryResponse.newBuilder()
          .setTypeUrl("type.googleapis.com/envoy.config.cluster.v3.Cluster")
          .setVersionInfo("1")
          .setNonce("1")
          .addResources(Any.pack(Cluster.newBuilder().setName("seed")
              .setType(Cluster.DiscoveryType.EDS)
              .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder()
                  .setEdsConfig(io.envoyproxy.envoy.config.core.v3.ConfigSource.newBuilder()
                      .setAds(io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource.getDefaultInstance())))
              .build()))
          .build());
      requestsBefore = feed.requestsSent();
      namesBefore = feed.namesSent();
    }

    /** Resource names the client's requests listed since setup. */
    public long names() {
      return feed.namesSent() - namesBefore;
    }

    /** Requests the client sent since setup. */
    public long requests() {
      return feed.requestsSent() - requestsBefore;
    }

    @TearDown(Level.Invocation)
    public void tearDown() {
      feed.close();
    }
  }

  static <T> ResourceWatcher<T> ignoring() {
    return new ResourceWatcher<>() {
      @Override
      public void onUpdate(T value) {}

      @Override
      public void onResourceDoesNotExist(String resourceName) {}

      @Override
      public void onError(Status error) {}
    };
  }

  @Benchmark
  public long oneTurn(Client c) {
    ResourceWatcher<ClusterUpdate> burst = new ResourceWatcher<>() {
      @Override
      public void onUpdate(ClusterUpdate value) {
        for (int i = 0; i < c.n; i++) {
          c.feed.client().watchCluster(ResponseData.clusterName(i), ignoring(), Runnable::run);
        }
      }

      @Override
      public void onResourceDoesNotExist(String resourceName) {}

      @Override
      public void onError(Status error) {}
    };
    c.feed.client().watchCluster("seed", burst, Runnable::run);
    return c.requests();
  }

  @Benchmark
  public long separateTurns(Client c) {
    for (int i = 0; i < c.n; i++) {
      c.feed.client().watchCluster(ResponseData.clusterName(i), ignoring(), Runnable::run);
    }
    return c.requests();
  }

  @Benchmark
  public int baseline(Client c) {
    io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest.Builder b =
        io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest.newBuilder()
            .setTypeUrl("type.googleapis.com/envoy.config.cluster.v3.Cluster");
    for (int i = 0; i < c.n; i++) {
      b.addResourceNames(ResponseData.clusterName(i));
    }
    return b.build().getSerializedSize();
  }
}
