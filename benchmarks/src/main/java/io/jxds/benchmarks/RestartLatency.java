package io.jxds.benchmarks;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.grpc.InsecureChannelCredentials;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.testing.EndpointsBuilder;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * How soon a real {@link DefaultXdsClient} opens its new ADS stream after its control plane comes
 * back: a {@link FakeAdsServer} on a fixed loopback port is stopped ({@code shutdownNow}, every
 * stream cut) for 0.3–2 s and started again, {@code restarts} times; between restarts it stays up
 * 1–2 s while pushing an endpoint change every 50 ms to the client, which watches 100 clusters
 * and their assignments. The figure is the time from {@code start()} returning to the server
 * seeing the client's new stream.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.jxds.benchmarks.RestartLatency 30 1
 * </pre>
 *
 * Arguments: restarts (default 30), seed of the up and down times (default 1).
 */
public final class RestartLatency {
  static final int CLUSTERS = 100;
  private static final Duration WAIT = Duration.ofSeconds(60);

  private RestartLatency() {}

  public static void main(String[] args) throws Exception {
    int restarts = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
    long[] millis = measure(restarts, seed, 1.0, 1.0, 0.3, 1.7);
    System.out.println(summary(millis));
    System.out.println("each (ms): " + Arrays.toString(millis));
  }

  /**
   * Runs the scenario and returns, per restart, the milliseconds from {@code start()} to the new
   * stream. Up and down times are uniform in [upMin, upMin + upSpread] and [downMin, downMin +
   * downSpread] seconds.
   */
  static long[] measure(int restarts, long seed, double upMin, double upSpread, double downMin, double downSpread)
      throws Exception {
    Random random = new Random(seed);
    FakeAdsServer server = FakeAdsServer.loopback().start();
    List<Cluster> clusters = new ArrayList<>();
    List<ClusterLoadAssignment> assignments = new ArrayList<>();
    for (int i = 0; i < CLUSTERS; i++) {
      clusters.add(XdsResources.cluster("c" + i).edsServiceName("e" + i).build());
      assignments.add(assignment("e" + i, 0));
    }
    server.setClusters(clusters.toArray(Cluster[]::new));
    server.setEndpoints(assignments.toArray(ClusterLoadAssignment[]::new));
    DefaultXdsClient client =
        XdsClientBuilder.forTarget(server.serverUri(), InsecureChannelCredentials.create())
            .node(Node.newBuilder().setId("restart-latency").build())
            .build();
    Load load = new Load(server);
    try {
      for (int i = 0; i < CLUSTERS; i++) {
        client.watchCluster("c" + i, HeapFootprint.cast(HeapFootprint.ignoring()), Runnable::run);
        client.watchEndpoints("e" + i, HeapFootprint.cast(HeapFootprint.ignoring()), Runnable::run);
      }
      server.streams().awaitCount(1, WAIT);
      server.requests().awaitAck(
          FakeAdsServer.ENDPOINTS_TYPE_URL, server.version(FakeAdsServer.ENDPOINTS_TYPE_URL), WAIT);
      load.start();
      long[] out = new long[restarts];
      for (int r = 0; r < restarts; r++) {
        sleepSeconds(upMin + random.nextDouble() * upSpread);
        server.stop();
        sleepSeconds(downMin + random.nextDouble() * downSpread);
        long started = System.nanoTime();
        server.start();
        server.streams().awaitCount(1, WAIT);
        out[r] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      }
      return out;
    } finally {
      load.stop();
      client.close();
      server.stop();
    }
  }

  static String summary(long[] millis) {
    long[] sorted = millis.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return String.format(
        "restarts %d: restart -> new stream median %d ms, p90 %d ms, max %d ms",
        n, sorted[n / 2], sorted[Math.min(n - 1, (int) Math.ceil(n * 0.9) - 1)], sorted[n - 1]);
  }

  private static ClusterLoadAssignment assignment(String name, int round) {
    EndpointsBuilder cla = XdsResources.endpoints(name);
    cla.locality("region", "zone", "", l -> {
      for (int i = 0; i < 10; i++) {
        l.endpoint("10.0." + (round & 255) + "." + i, 8080, HealthStatus.HEALTHY);
      }
    });
    return cla.build();
  }

  private static void sleepSeconds(double seconds) throws InterruptedException {
    Thread.sleep((long) (seconds * 1000));
  }

  /** Changes one assignment every 50 ms (also while the server is down: it keeps its state). */
  private static final class Load implements Runnable {
    private final FakeAdsServer server;
    private final Thread thread = new Thread(this, "restart-latency-load");
    private volatile boolean running = true;

    Load(FakeAdsServer server) {
      this.server = server;
      thread.setDaemon(true);
    }

    void start() {
      thread.start();
    }

    void stop() throws InterruptedException {
      running = false;
      thread.interrupt();
      thread.join(5_000);
    }

    @Override
    public void run() {
      int round = 1;
      while (running) {
        server.putEndpoints(assignment("e" + (round % CLUSTERS), round));
        round++;
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }
}
