package io.jxds.benchmarks;

import com.google.protobuf.Empty;
import com.google.protobuf.StringValue;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.grpc.Attributes;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServerTransportFilter;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.XdsResources;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.ToLongFunction;

/**
 * How soon RPCs go back to priority 0 once its dead endpoints come back, jxds ({@code
 * xds-cluster:///failback}) against grpc-java's own xDS ({@code xds:///failback}, grpc-xds), on
 * the same control plane ({@link FakeAdsServer}: a Listener with an inline route for grpc-java,
 * the Cluster and its assignment for both) and the same backends on 127.0.0.1.
 *
 * <p>The cluster has priority 0 (one locality, two endpoints) and priority 1 (one endpoint). A
 * trial opens a channel and sends an RPC every {@value #RPC_INTERVAL_MICROS} µs (not
 * wait-for-ready, each backend answers its name); once both priority-0 endpoints have answered,
 * their two servers are killed ({@code shutdownNow}: listeners and connections); RPCs move to
 * priority 1; {@code down} seconds after the kill the servers listen again on the same ports. The
 * figures, from the moment both listen again:
 *
 * <ul>
 *   <li><b>first</b>: the first RPC answered by priority 0;
 *   <li><b>all</b>: the first RPC answered by priority 0 that was sent after the last one
 *       answered by priority 1 (from then on every RPC is on priority 0).
 * </ul>
 *
 * <p>Both are bound by the subchannels' reconnect backoff (1 s, ×1.6, ±20 %), which nothing here
 * resets: each subchannel retries about 1 s and 2.6 s after the kill, and RPCs return on the first
 * of the two endpoints to get through. So the first figure is split in two: until a priority-0
 * server accepts its first connection (the backoff's share, random), and from there to the first
 * RPC it answers (what the balancer adds). With 2 s down, the first of two endpoints' retries comes
 * a median ≈ 470 ms after the restart, with a spread (≈ 170 ms) that makes the ratio of two
 * medians of 20 trials uncertain by about ±30 % (±15 % with 100): the ratio comes with a
 * bootstrap interval.
 *
 * <p>Trials of the two clients alternate (jxds first in even trials), each with a new channel,
 * after one warm-up trial each. grpc-java reads its bootstrap once per JVM, so the control plane
 * is started once per JVM and kept.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.jxds.benchmarks.FailbackLatency 100 2
 * </pre>
 *
 * Arguments: trials per client (default 50, about 4 s each), seconds the servers stay down
 * (default 2).
 */
public final class FailbackLatency {
  static final String CLUSTER = "failback";
  private static final String JXDS_BOOTSTRAP = "jxds.bootstrapConfig";
  static final int RPC_INTERVAL_MICROS = 2_000;
  /** Priority 0 must hold every RPC this long before a trial ends. */
  private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(300);
  private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);
  static final MethodDescriptor<Empty, StringValue> WHO = MethodDescriptor.<Empty, StringValue>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY)
      .setFullMethodName("jxds.bench.Who/Who")
      .setRequestMarshaller(ProtoUtils.marshaller(Empty.getDefaultInstance()))
      .setResponseMarshaller(ProtoUtils.marshaller(StringValue.getDefaultInstance()))
      .build();

  private static FakeAdsServer controlPlane;

  /** The two clients compared. */
  enum Client {
    JXDS("jxds", XdsClusterPolicy.target(CLUSTER)),
    GRPC_JAVA("grpc-java", "xds:///" + CLUSTER);

    final String label;
    final String target;

    Client(String label, String target) {
      this.label = label;
      this.target = target;
    }
  }

  /**
   * One trial's figures, in milliseconds: failover from the kill; connected (the first connection a
   * priority-0 server accepted), first and all from the restart.
   */
  record Trial(Client client, long failoverMillis, long connectedMillis, long firstMillis, long allMillis) {}

  /** Every trial of one run. */
  record Figures(double downSeconds, List<Trial> trials) {
    long[] of(Client client, ToLongFunction<Trial> figure) {
      return trials.stream().filter(t -> t.client == client).mapToLong(figure).toArray();
    }

    /**
     * The median ratio jxds / grpc-java of the first RPC on priority 0, with a 95 % bootstrap
     * interval (resampling each client's trials, seeded): {ratio, low, high}.
     */
    double[] firstRatio() {
      long[] jxds = of(Client.JXDS, Trial::firstMillis);
      long[] grpc = of(Client.GRPC_JAVA, Trial::firstMillis);
      Random random = new Random(1);
      double[] ratios = new double[2000];
      for (int i = 0; i < ratios.length; i++) {
        ratios[i] = ratio(median(resample(jxds, random)), median(resample(grpc, random)));
      }
      Arrays.sort(ratios);
      return new double[] {ratio(median(jxds), median(grpc)), ratios[ratios.length / 40],
          ratios[ratios.length - 1 - ratios.length / 40]};
    }

    String format() {
      StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
          "failback after %.1f s down, %d trials per client, ms from the servers listening again%n",
          downSeconds, trials.size() / 2));
      for (Client client : Client.values()) {
        long[] first = of(client, Trial::firstMillis);
        long[] all = of(client, Trial::allMillis);
        out.append(String.format(Locale.ROOT,
            "%-10s first on p0: median %4d p90 %4d mean %4d   all on p0: median %4d p90 %4d%n"
                + "           medians of: failover %d (from the kill); first connection accepted %d;"
                + " from it to the first RPC on p0 %d%n",
            client.label, median(first), p90(first), Math.round(Arrays.stream(first).average().orElse(-1)),
            median(all), p90(all), median(of(client, Trial::failoverMillis)),
            median(of(client, Trial::connectedMillis)), median(of(client, t -> t.firstMillis - t.connectedMillis))));
      }
      double[] first = firstRatio();
      out.append(String.format(Locale.ROOT,
          "jxds / grpc-java, medians: first %.2fx (95%% bootstrap interval %.2f-%.2f), all %.2fx%n",
          first[0], first[1], first[2],
          ratio(median(of(Client.JXDS, Trial::allMillis)), median(of(Client.GRPC_JAVA, Trial::allMillis)))));
      for (Client client : Client.values()) {
        out.append(client.label).append(" first (ms): ").append(Arrays.toString(of(client, Trial::firstMillis)))
            .append(String.format("%n"));
      }
      return out.toString();
    }

    private static long[] resample(long[] values, Random random) {
      long[] out = new long[values.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = values[random.nextInt(values.length)];
      }
      return out;
    }
  }

  private FailbackLatency() {}

  public static void main(String[] args) throws Exception {
    int trials = args.length > 0 ? Integer.parseInt(args[0]) : 50;
    double down = args.length > 1 ? Double.parseDouble(args[1]) : 2.0;
    try {
      System.out.print(measure(trials, down, 1).format());
    } finally {
      synchronized (FailbackLatency.class) {
        if (controlPlane != null) {
          controlPlane.close();
        }
      }
    }
  }

  /**
   * Runs {@code warmUps} uncounted trials, then {@code trials} counted ones, per client.
   *
   * @param downSeconds how long priority 0's servers stay down
   */
  static Figures measure(int trials, double downSeconds, int warmUps) throws Exception {
    FakeAdsServer ads = controlPlane();
    String previousBootstrap = System.getProperty(JXDS_BOOTSTRAP);
    System.setProperty(JXDS_BOOTSTRAP, ads.bootstrap().build()); // read on each client acquisition
    List<Backend> backends = List.of(Backend.start("p0-a"), Backend.start("p0-b"), Backend.start("p1"));
    try {
      ads.setListeners(XdsResources.listener(CLUSTER)
          .inlineRouteConfig(XdsResources.route(CLUSTER).virtualHost("all", List.of("*"), CLUSTER).build())
          .build());
      ads.setClusters(XdsResources.cluster(CLUSTER).build());
      ads.setEndpoints(XdsResources.endpoints(CLUSTER)
          .locality("r", "p0", "", l -> l.priority(0).weight(1)
              .endpoint("127.0.0.1", backends.get(0).port, HealthStatus.HEALTHY)
              .endpoint("127.0.0.1", backends.get(1).port, HealthStatus.HEALTHY))
          .locality("r", "p1", "", l -> l.priority(1).weight(1)
              .endpoint("127.0.0.1", backends.get(2).port, HealthStatus.HEALTHY))
          .build());
      long downNanos = (long) (downSeconds * 1e9);
      List<Trial> out = new ArrayList<>();
      for (int i = -warmUps; i < trials; i++) {
        Client[] order = Math.floorMod(i, 2) == 0
            ? new Client[] {Client.JXDS, Client.GRPC_JAVA} : new Client[] {Client.GRPC_JAVA, Client.JXDS};
        for (Client client : order) {
          Trial trial = trial(client, backends, downNanos);
          if (i >= 0) {
            out.add(trial);
          }
        }
      }
      return new Figures(downSeconds, out);
    } finally {
      for (Backend backend : backends) {
        backend.kill();
      }
      if (previousBootstrap == null) {
        System.clearProperty(JXDS_BOOTSTRAP);
      } else {
        System.setProperty(JXDS_BOOTSTRAP, previousBootstrap);
      }
    }
  }

  // With jxds on the class path, jxds serves xds: (ARCHITECTURE.md, "Routing each call"): grpc-java
  // gets grpc-xds's resolver through the deprecated nameResolverFactory, on a builder that has not
  // chosen its resolver yet (Grpc.newChannelBuilder has, and would ignore the factory).
  @SuppressWarnings("deprecation")
  private static Trial trial(Client client, List<Backend> backends, long downNanos) throws Exception {
    ManagedChannel channel = client == Client.GRPC_JAVA
        ? NettyChannelBuilder.forTarget(client.target, InsecureChannelCredentials.create())
            .nameResolverFactory(new io.grpc.xds.XdsNameResolverProvider())
            .build()
        : Grpc.newChannelBuilder(client.target, InsecureChannelCredentials.create()).build();
    Driver driver = new Driver(channel);
    try {
      driver.start();
      await(client, "both priority-0 endpoints answer", () -> driver.answeredBy("p0-a") && driver.answeredBy("p0-b"));
      long killed = System.nanoTime();
      backends.get(0).server.shutdownNow();
      backends.get(1).server.shutdownNow();
      backends.get(0).kill();
      backends.get(1).kill();
      await(client, "priority 1 answers", () -> driver.lastDone(1) > killed);
      long failover = driver.firstDone(1, killed) - killed;
      long sleep = killed + downNanos - System.nanoTime();
      if (sleep > 0) {
        TimeUnit.NANOSECONDS.sleep(sleep);
      }
      backends.get(0).restart();
      backends.get(1).restart();
      long up = System.nanoTime();
      await(client, "priority 0 answers again", () -> driver.lastDone(0) > up);
      long firstDone = driver.firstDone(0, up);
      await(client, "priority 0 keeps every RPC",
          () -> System.nanoTime() - Math.max(driver.lastDone(1), firstDone) > SETTLE_NANOS);
      driver.stop();
      long first = firstDone - up;
      long all = driver.allOnPriority0(up) - up;
      long connected = Math.max(0, Math.min(backends.get(0).connected(), backends.get(1).connected()) - up);
      return new Trial(client, toMillis(failover), toMillis(connected), toMillis(first), toMillis(all));
    } finally {
      driver.stop();
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  private static synchronized FakeAdsServer controlPlane() {
    if (controlPlane == null) {
      controlPlane = FakeAdsServer.loopback().start();
      // grpc-java reads this once per JVM, hence one control plane per JVM.
      System.setProperty("io.grpc.xds.bootstrapConfig", controlPlane.bootstrap().build());
    }
    return controlPlane;
  }

  private interface Condition {
    boolean holds();
  }

  private static void await(Client client, String what, Condition condition) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT_NANOS;
    while (!condition.holds()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(client.label + ": not within 30 s: " + what);
      }
      Thread.sleep(1);
    }
  }

  private static long toMillis(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }

  static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted.length == 0 ? -1 : sorted[sorted.length / 2];
  }

  static long p90(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted.length == 0 ? -1 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.9) - 1)];
  }

  static double ratio(long a, long b) {
    return b <= 0 ? Double.NaN : (double) a / b;
  }

  /** A backend on a fixed loopback port that answers {@link #WHO} with its name. */
  private static final class Backend {
    final String name;
    final int port;
    /** When the current server accepted its first connection (System.nanoTime), MAX_VALUE before. */
    private final AtomicLong connected;
    Server server;

    private Backend(String name, Server server, AtomicLong connected) {
      this.name = name;
      this.server = server;
      this.port = server.getPort();
      this.connected = connected;
    }

    static Backend start(String name) throws IOException {
      AtomicLong connected = new AtomicLong(Long.MAX_VALUE);
      return new Backend(name, listen(name, 0, connected), connected);
    }

    long connected() {
      return connected.get();
    }

    void kill() throws InterruptedException {
      server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }

    /** Listens again on the same port (retrying while the port is still held). */
    void restart() throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (true) {
        try {
          connected.set(Long.MAX_VALUE);
          server = listen(name, port, connected);
          return;
        } catch (IOException e) {
          if (System.nanoTime() > deadline) {
            throw e;
          }
          Thread.sleep(1);
        }
      }
    }

    private static Server listen(String name, int port, AtomicLong connected) throws IOException {
      StringValue answer = StringValue.of(name);
      return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port), InsecureServerCredentials.create())
          .addTransportFilter(new ServerTransportFilter() {
            @Override
            public Attributes transportReady(Attributes attributes) {
              connected.accumulateAndGet(System.nanoTime(), Math::min);
              return attributes;
            }
          })
          .addService(ServerServiceDefinition.builder("jxds.bench.Who")
              .addMethod(WHO, ServerCalls.asyncUnaryCall((request, response) -> {
                response.onNext(answer);
                response.onCompleted();
              }))
              .build())
          .build()
          .start();
    }
  }

  /** Sends an RPC every {@value #RPC_INTERVAL_MICROS} µs and records who answered, and when. */
  private static final class Driver {
    private final ManagedChannel channel;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "failback-driver");
      t.setDaemon(true);
      return t;
    });
    private final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
    /** Per priority, the latest answer's completion (System.nanoTime), 0 before any. */
    private final AtomicLongArray lastDone = new AtomicLongArray(2);
    private final ConcurrentLinkedQueue<String> names = new ConcurrentLinkedQueue<>();

    /** An answered RPC: when it was sent and answered, and by which backend. */
    private record Answer(long sent, long done, String backend) {
      int priority() {
        return backend.startsWith("p0") ? 0 : 1;
      }
    }

    Driver(ManagedChannel channel) {
      this.channel = channel;
    }

    void start() {
      timer.scheduleAtFixedRate(this::send, 0, RPC_INTERVAL_MICROS, TimeUnit.MICROSECONDS);
    }

    void stop() throws InterruptedException {
      timer.shutdownNow();
      timer.awaitTermination(5, TimeUnit.SECONDS);
    }

    boolean answeredBy(String backend) {
      return names.contains(backend);
    }

    long lastDone(int priority) {
      return lastDone.get(priority);
    }

    /** The completion of the first answer by {@code priority} completed after {@code after}. */
    long firstDone(int priority, long after) {
      long first = Long.MAX_VALUE;
      for (Answer a : answers) {
        if (a.priority() == priority && a.done > after) {
          first = Math.min(first, a.done);
        }
      }
      return first;
    }

    /** The completion of the first priority-0 answer sent after the last priority-1 answer. */
    long allOnPriority0(long after) {
      long lastP1Sent = after;
      for (Answer a : answers) {
        if (a.priority() == 1 && a.sent > lastP1Sent) {
          lastP1Sent = a.sent;
        }
      }
      long first = Long.MAX_VALUE;
      for (Answer a : answers) {
        if (a.priority() == 0 && a.sent > lastP1Sent) {
          first = Math.min(first, a.done);
        }
      }
      return first;
    }

    private void send() {
      long sent = System.nanoTime();
      ClientCall<Empty, StringValue> call =
          channel.newCall(WHO, CallOptions.DEFAULT.withDeadlineAfter(1, TimeUnit.SECONDS));
      ClientCalls.asyncUnaryCall(call, Empty.getDefaultInstance(), new StreamObserver<>() {
        @Override
        public void onNext(StringValue value) {
          long done = System.nanoTime();
          Answer answer = new Answer(sent, done, value.getValue());
          answers.add(answer);
          lastDone.accumulateAndGet(answer.priority(), done, Math::max);
          if (!names.contains(answer.backend)) {
            names.add(answer.backend);
          }
        }

        @Override
        public void onError(Throwable t) {} // RPCs in flight to a killed server fail: expected

        @Override
        public void onCompleted() {}
      });
    }
  }
}
