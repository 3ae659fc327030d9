package io.jxds.benchmarks;

import com.google.protobuf.BytesValue;
import com.google.protobuf.MessageLite;
import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.jxds.api.ResourceWatcher;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.testing.XdsResources;
import java.io.IOException;
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
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a process with N clusters costs the client, against java-control-plane (SimpleCache,
 * V3DiscoveryServer) on a loopback port in the same JVM, in state of the world and in delta, once
 * the client's stream is up and has answered a first cluster (so the names reach the server in as
 * many requests as the client sends, not all in the stream's first one). Two modes:
 *
 * <ul>
 *   <li><b>channels</b>: N real {@code xds-cluster:///} channels, one per cluster, opened from 8
 *       threads at once, each sending one RPC; every cluster's one endpoint is the same echo
 *       backend on 127.0.0.1 (N backends would be too heavy for a 2-core machine), so each channel
 *       still has its own connection;
 *   <li><b>watches</b>: each channel stood for by the two watches it makes (its Cluster and its
 *       ClusterLoadAssignment): the client alone, without the balancer and the connections.
 * </ul>
 *
 * <p>Figures:
 *
 * <ul>
 *   <li><b>time</b>: from the first channel (or watch) until every RPC has answered (every watcher
 *       has its value);
 *   <li><b>bytes</b>: the serialized size of every response the control plane sent the client;
 *   <li><b>requests</b>: how many the client sent, and their serialized size (a state-of-the-world
 *       request lists every subscribed name of its type);
 *   <li><b>client CPU</b>: the CPU time of every thread but the control plane's and the backend's
 *       (their own event loops and executors, named {@code jcp-} and {@code backend-}) and the
 *       measuring thread, from the first channel (watch) until all answered;
 *   <li><b>heap per cluster</b>: heap used after a full GC with the client (and channels) open,
 *       less after they closed, over N.
 * </ul>
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.jxds.benchmarks.ScaleLatency 100,1000,5000 sotw,delta channels
 * java -cp benchmarks/target/benchmarks.jar io.jxds.benchmarks.ScaleLatency 100,1000,5000 sotw,delta watches
 * </pre>
 */
public final class ScaleLatency {
  private static final String GROUP = "scale";
  private static final int WATCH_THREADS = 8;

  /** One run's figures. */
  record Figures(int n, boolean delta, boolean channels, long millis, long bytes, long responses, long requests,
      long requestBytes, long clientCpuMillis, long heapBytesPerCluster) {
    String format() {
      return String.format(Locale.ROOT, "%-5s %-8s N=%5d  time %6d ms  bytes %,12d (%,d responses)"
          + "  requests %,d (%,d bytes)  client CPU %6d ms  heap/cluster %,6d B", delta ? "delta" : "sotw",
          channels ? "channels" : "watches", n, millis, bytes, responses, requests, requestBytes, clientCpuMillis,
          heapBytesPerCluster);
    }
  }

  private ScaleLatency() {}

  public static void main(String[] args) throws Exception {
    String[] sizes = (args.length > 0 ? args[0] : "100,1000,5000").split(",");
    String[] protocols = (args.length > 1 ? args[1] : "sotw,delta").split(",");
    boolean channels = !(args.length > 2 && args[2].trim().equals("watches"));
    measure(50, false, channels); // warm-up: class loading and JIT of both paths
    measure(50, true, channels);
    for (String size : sizes) {
      for (String protocol : protocols) {
        System.out.println(
            measure(Integer.parseInt(size.trim()), protocol.trim().equals("delta"), channels).format());
      }
    }
  }

  static Figures measure(int n, boolean delta, boolean channels) throws Exception {
    LoopbackServer backend = channels ? LoopbackServer.start("backend", FirstRpcBenchmark.echoService()) : null;
    SimpleCache<String> cache = new SimpleCache<>(node -> GROUP);
    cache.setSnapshot(GROUP, snapshot(n, backend == null ? -1 : backend.port()));
    AtomicLong bytes = new AtomicLong();
    AtomicLong responses = new AtomicLong();
    AtomicLong requests = new AtomicLong();
    AtomicLong requestBytes = new AtomicLong();
    LoopbackServer server = LoopbackServer.start("jcp", ServerInterceptors.intercept(
        new V3DiscoveryServer(cache).getAggregatedDiscoveryServiceImpl(),
        counting(bytes, responses, requests, requestBytes)));
    ExecutorService watchers = Executors.newFixedThreadPool(WATCH_THREADS, named("bench-watch"));
    try {
      DefaultXdsClient client =
          XdsClientBuilder.forTarget("127.0.0.1:" + server.port(), InsecureChannelCredentials.create())
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
      requestBytes.set(0);
      CountDownLatch answered = new CountDownLatch(channels ? n : 2 * n);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      ManagedChannel[] opened = new ManagedChannel[n];
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long cpuBefore = clientCpuNanos(threads);
      long start = System.nanoTime();
      AtomicInteger next = new AtomicInteger();
      for (int t = 0; t < WATCH_THREADS; t++) {
        watchers.execute(() -> {
          for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
            if (channels) {
              opened[i] = Grpc.newChannelBuilder(XdsClusterPolicy.target("c" + i), InsecureChannelCredentials.create())
                  .setNameResolverArg(XdsClusterPolicy.XDS_CLIENT_ARG, client)
                  .build();
              rpc(opened[i], answered, failure);
            } else {
              client.watchCluster("c" + i, once(answered), Runnable::run);
              client.watchEndpoints("c" + i, once(answered), Runnable::run);
            }
          }
        });
      }
      boolean done = answered.await(5, TimeUnit.MINUTES);
      if (failure.get() != null) {
        throw new IllegalStateException("an RPC failed", failure.get());
      }
      if (!done) {
        throw new IllegalStateException("not every " + (channels ? "channel" : "watcher")
            + " answered within 5 minutes: " + answered.getCount() + " left");
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      long cpu = TimeUnit.NANOSECONDS.toMillis(clientCpuNanos(threads) - cpuBefore);
      long sent = bytes.get();
      long count = responses.get();
      long asked = requests.get();
      long askedBytes = requestBytes.get();
      long open = usedHeapAfterGc();
      for (ManagedChannel c : opened) {
        if (c != null) {
          c.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
      }
      client.close();
      long closed = usedHeapAfterGc();
      long heapPerCluster = Math.max(0, open - closed) / n;
      return new Figures(n, delta, channels, millis, sent, count, asked, askedBytes, cpu, heapPerCluster);
    } finally {
      watchers.shutdownNow();
      if (backend != null) {
        backend.close();
      }
      server.close();
    }
  }

  /** N clusters, each with one endpoint: the backend on {@code backendPort}, or (-1) a 10.x address. */
  private static Snapshot snapshot(int n, int backendPort) {
    List<Cluster> clusters = new ArrayList<>(n + 1);
    clusters.add(XdsResources.cluster("seed").build());
    List<ClusterLoadAssignment> endpoints = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      clusters.add(XdsResources.cluster("c" + i).build());
      int host = i;
      String ip = backendPort > 0
          ? "127.0.0.1"
          : "10." + (host >> 16 & 255) + "." + (host >> 8 & 255) + "." + (host & 255);
      int port = backendPort > 0 ? backendPort : 8080;
      endpoints.add(XdsResources.endpoints("c" + i)
          .locality("bench", "zone-a", "", l -> l.endpoint(ip, port, HealthStatus.HEALTHY))
          .build());
    }
    return Snapshot.create(clusters, endpoints, List.of(), List.of(), List.of(), "1");
  }

  /** Counts the serialized bytes of every response the server sends, and of every request. */
  private static ServerInterceptor counting(
      AtomicLong bytes, AtomicLong responses, AtomicLong requests, AtomicLong requestBytes) {
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
            requestBytes.addAndGet(((MessageLite) message).getSerializedSize());
            super.onMessage(message);
          }
        };
      }
    };
  }

  /** One echo RPC on {@code channel}; counts down when it answers, records the first failure. */
  private static void rpc(ManagedChannel channel, CountDownLatch answered, AtomicReference<Throwable> failure) {
    ClientCall<BytesValue, BytesValue> call =
        channel.newCall(FirstRpcBenchmark.ECHO, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.MINUTES));
    ClientCalls.asyncUnaryCall(call, BytesValue.getDefaultInstance(), new StreamObserver<>() {
      @Override
      public void onNext(BytesValue value) {}

      @Override
      public void onError(Throwable t) {
        failure.compareAndSet(null, t);
        answered.countDown();
      }

      @Override
      public void onCompleted() {
        answered.countDown();
      }
    });
  }

  /**
   * A server on a loopback port with its own event loops and executor, on threads named {@code
   * <prefix>-}: the control plane ({@code jcp}) and the echo backend every cluster's endpoint
   * points at ({@code backend}), so that the client's CPU time can leave both out.
   */
  private record LoopbackServer(
      Server server, EventLoopGroup boss, EventLoopGroup worker, ExecutorService executor)
      implements AutoCloseable {
    static LoopbackServer start(String threadPrefix, ServerServiceDefinition service) throws IOException {
      EventLoopGroup boss =
          new MultiThreadIoEventLoopGroup(1, named(threadPrefix + "-boss"), NioIoHandler.newFactory());
      EventLoopGroup worker =
          new MultiThreadIoEventLoopGroup(1, named(threadPrefix + "-worker"), NioIoHandler.newFactory());
      ExecutorService executor = Executors.newSingleThreadExecutor(named(threadPrefix + "-executor"));
      Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
          .bossEventLoopGroup(boss)
          .workerEventLoopGroup(worker)
          .channelType(NioServerSocketChannel.class)
          .executor(executor)
          .addService(service)
          .build()
          .start();
      return new LoopbackServer(server, boss, worker, executor);
    }

    int port() {
      return server.getPort();
    }

    @Override
    public void close() {
      try {
        server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      executor.shutdownNow();
      boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      worker.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
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

  /** CPU time of every live thread but the control plane's, the backend's and the current one. */
  private static long clientCpuNanos(ThreadMXBean threads) {
    long sum = 0;
    long self = Thread.currentThread().getId();
    for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
      String name = info == null ? "" : info.getThreadName();
      if (info == null || info.getThreadId() == self || name.startsWith("jcp-") || name.startsWith("backend-")) {
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
