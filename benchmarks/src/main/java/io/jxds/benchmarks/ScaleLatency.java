package io.jxds.benchmarks;

import com.google.protobuf.MessageLite;
import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.jxds.api.ResourceWatcher;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.testing.XdsResources;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a process with N clusters costs the client, against java-control-plane (SimpleCache,
 * V3DiscoveryServer) on a loopback port in the same JVM, in state of the world and in delta. Each
 * of N "channels" is stood for by the two watches a channel makes (its Cluster and its
 * ClusterLoadAssignment), made from 8 threads at once (channels starting together) once the
 * client's stream is up and has answered a first cluster (so the names reach the server in as
 * many requests as the client sends, not all in the stream's first one); real channels with N
 * backends are too heavy for a 2-core machine. Figures:
 *
 * <ul>
 *   <li><b>time</b>: from the first watch until every watcher has its value;
 *   <li><b>bytes</b>: the serialized size of every response the control plane sent the client;
 *   <li><b>client CPU</b>: the CPU time of every thread but the control plane's (its own event
 *       loops and executor, named {@code jcp-}) and the measuring thread, from the first watch
 *       until all answered;
 *   <li><b>heap per cluster</b>: heap used after a full GC with the client open, less after it
 *       closed, over N.
 * </ul>
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.jxds.benchmarks.ScaleLatency 100,1000,5000 sotw,delta
 * </pre>
 */
public final class ScaleLatency {
  private static final String GROUP = "scale";
  private static final int WATCH_THREADS = 8;

  /** One run's figures. */
  record Figures(int n, boolean delta, long millis, long bytes, long responses, long requests,
      long clientCpuMillis, long heapBytesPerCluster) {
    String format() {
      return String.format(Locale.ROOT, "%-5s N=%5d  time %6d ms  bytes %,12d (%,d responses, %,d requests)"
          + "  client CPU %6d ms  heap/cluster %,6d B", delta ? "delta" : "sotw", n, millis, bytes, responses,
          requests, clientCpuMillis, heapBytesPerCluster);
    }
  }

  private ScaleLatency() {}

  public static void main(String[] args) throws Exception {
    String[] sizes = (args.length > 0 ? args[0] : "100,1000,5000").split(",");
    String[] protocols = (args.length > 1 ? args[1] : "sotw,delta").split(",");
    measure(50, false); // warm-up: class loading and JIT of both paths
    measure(50, true);
    for (String size : sizes) {
      for (String protocol : protocols) {
        System.out.println(measure(Integer.parseInt(size.trim()), protocol.trim().equals("delta")).format());
      }
    }
  }

  static Figures measure(int n, boolean delta) throws Exception {
    SimpleCache<String> cache = new SimpleCache<>(node -> GROUP);
    cache.setSnapshot(GROUP, snapshot(n));
    AtomicLong bytes = new AtomicLong();
    AtomicLong responses = new AtomicLong();
    AtomicLong requests = new AtomicLong();
    NioEventLoopGroup boss = new NioEventLoopGroup(1, named("jcp-boss"));
    NioEventLoopGroup worker = new NioEventLoopGroup(1, named("jcp-worker"));
    ExecutorService serverExecutor = Executors.newSingleThreadExecutor(named("jcp-executor"));
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .bossEventLoopGroup(boss)
        .workerEventLoopGroup(worker)
        .channelType(NioServerSocketChannel.class)
        .executor(serverExecutor)
        .addService(ServerInterceptors.intercept(
            new V3DiscoveryServer(cache).getAggregatedDiscoveryServiceImpl(), counting(bytes, responses, requests)))
        .build()
        .start();
    ExecutorService watchers = Executors.newFixedThreadPool(WATCH_THREADS, named("bench-watch"));
    try {
      DefaultXdsClient client =
          XdsClientBuilder.forTarget("127.0.0.1:" + server.getPort(), InsecureChannelCredentials.create())
              .node(Node.newBuilder().setId("scale-" + n + (delta ? "-delta" : "-sotw")).build())
              .deltaXds(delta)
              .build();
      CountDownLatch seeded = new CountDownLatch(1);
      client.watchCluster("seed", once(seeded), Runnable::run);
      if (!seeded.await(1, TimeUnit.MINUTES)) {
        throw new IllegalStateException("the control plane did not answer");
      }
      bytes.set(0);
      responses.set(0);
      requests.set(0);
      CountDownLatch answered = new CountDownLatch(2 * n);
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long cpuBefore = clientCpuNanos(threads);
      long start = System.nanoTime();
      AtomicInteger next = new AtomicInteger();
      for (int t = 0; t < WATCH_THREADS; t++) {
        watchers.execute(() -> {
          for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
            client.watchCluster("c" + i, once(answered), Runnable::run);
            client.watchEndpoints("c" + i, once(answered), Runnable::run);
          }
        });
      }
      if (!answered.await(5, TimeUnit.MINUTES)) {
        throw new IllegalStateException("not every watcher answered within 5 minutes: " + answered.getCount()
            + " left");
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      long cpu = TimeUnit.NANOSECONDS.toMillis(clientCpuNanos(threads) - cpuBefore);
      long sent = bytes.get();
      long count = responses.get();
      long asked = requests.get();
      long open = usedHeapAfterGc();
      client.close();
      long closed = usedHeapAfterGc();
      return new Figures(n, delta, millis, sent, count, asked, cpu, Math.max(0, open - closed) / n);
    } finally {
      watchers.shutdownNow();
      server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
      serverExecutor.shutdownNow();
      boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      worker.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }

  private static Snapshot snapshot(int n) {
    List<Cluster> clusters = new ArrayList<>(n + 1);
    clusters.add(XdsResources.cluster("seed").build());
    List<ClusterLoadAssignment> endpoints = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      clusters.add(XdsResources.cluster("c" + i).build());
      int host = i;
      endpoints.add(XdsResources.endpoints("c" + i)
          .locality("bench", "zone-a", "", l -> l.endpoint(
              "10." + (host >> 16 & 255) + "." + (host >> 8 & 255) + "." + (host & 255), 8080, HealthStatus.HEALTHY))
          .build());
    }
    return Snapshot.create(clusters, endpoints, List.of(), List.of(), List.of(), "1");
  }

  /** Counts the serialized bytes of every response the server sends, and the requests. */
  private static ServerInterceptor counting(AtomicLong bytes, AtomicLong responses, AtomicLong requests) {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        ServerCall.Listener<Q> listener = next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
          @Override
          public void sendMessage(R message) {
            bytes.addAndGet(((MessageLite) message).getSerializedSize());
            responses.incrementAndGet();
            super.sendMessage(message);
          }
        }, headers);
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
          @Override
          public void onMessage(Q message) {
            requests.incrementAndGet();
            super.onMessage(message);
          }
        };
      }
    };
  }

  private static <T> ResourceWatcher<T> once(CountDownLatch answered) {
    return new ResourceWatcher<>() {
      private boolean told;

      @Override
      public void onUpdate(T value) {
        if (!told) {
          told = true;
          answered.countDown();
        }
      }

      @Override
      public void onResourceDoesNotExist(String resourceName) {}

      @Override
      public void onError(Status error) {}
    };
  }

  /** CPU time of every live thread but the control plane's and the current one. */
  private static long clientCpuNanos(ThreadMXBean threads) {
    long sum = 0;
    long self = Thread.currentThread().getId();
    for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info == null || info.getThreadId() == self || info.getThreadName().startsWith("jcp-")) {
        continue;
      }
      long cpu = threads.getThreadCpuTime(info.getThreadId());
      if (cpu > 0) {
        sum += cpu;
      }
    }
    return sum;
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static ThreadFactory named(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
