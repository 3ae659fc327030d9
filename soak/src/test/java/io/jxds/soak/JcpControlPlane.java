package io.jxds.soak;

import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.jxds.testing.FakeAdsServer;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntUnaryOperator;

/**
 * java-control-plane ({@code V3DiscoveryServer} over a {@code SimpleCache}, ADS) as the soak's
 * control plane. A restart is a fresh server and cache on the same port, given the latest snapshot,
 * as a restarted control-plane process. A server interceptor counts ADS streams and injects the
 * stream faults (close all, close after each response).
 */
final class JcpControlPlane implements SoakControlPlane {
  private static final String GROUP = "soak";

  private final Set<Stream> live = ConcurrentHashMap.newKeySet();
  private final AtomicLong opened = new AtomicLong();
  private volatile boolean recycling;
  private SimpleCache<String> cache;
  private Server server;
  private int port;
  private long clustersVersion;
  private long endpointsVersion;
  private long listenersVersion;
  private long routesVersion;
  private List<Listener> listeners = List.of();
  private List<RouteConfiguration> routeConfigs = List.of();
  private List<Cluster> clusters = List.of();
  private List<ClusterLoadAssignment> endpoints = List.of();

  JcpControlPlane() {
    start();
  }

  @Override
  public String serverUri() {
    return "127.0.0.1:" + port;
  }

  @Override
  public synchronized void publish(List<ClusterModel> model, RouteModel routes, IntUnaryOperator ports,
      boolean newerVersion) {
    List<Cluster> c = new ArrayList<>();
    List<ClusterLoadAssignment> e = new ArrayList<>();
    for (ClusterModel m : model) {
      if (!m.deleted) {
        c.add(m.clusterProto(ports));
        if (!m.dns() && !m.aggregate()) { // neither has a ClusterLoadAssignment
          e.add(m.endpointsProto(ports));
        }
      }
    }
    if (newerVersion || !c.equals(clusters)) {
      clustersVersion++;
      clusters = c;
    }
    if (newerVersion || !e.equals(endpoints)) {
      endpointsVersion++;
      endpoints = e;
    }
    List<Listener> l = new ArrayList<>();
    List<RouteConfiguration> r = new ArrayList<>();
    for (RouteModel.ListenerModel m : routes.listeners) {
      if (!m.deleted) {
        l.add(m.listenerProto());
      }
      if (m.rds) {
        r.add(m.routesProto());
      }
    }
    if (newerVersion || !l.equals(listeners)) {
      listenersVersion++;
      listeners = l;
    }
    if (newerVersion || !r.equals(routeConfigs)) {
      routesVersion++;
      routeConfigs = r;
    }
    if (cache != null) {
      cache.setSnapshot(GROUP, snapshot());
    }
  }

  private Snapshot snapshot() {
    return Snapshot.create(clusters, "c" + clustersVersion, endpoints, "e" + endpointsVersion,
        listeners, "l" + listenersVersion, routeConfigs, "r" + routesVersion, List.of(), "s0");
  }

  @Override
  public synchronized void stop() throws InterruptedException {
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server = null;
      cache = null;
      live.clear();
    }
  }

  @Override
  public synchronized void start() {
    if (server != null) {
      return;
    }
    SimpleCache<String> fresh = new SimpleCache<>(node -> GROUP);
    fresh.setSnapshot(GROUP, snapshot());
    var ads = ServerInterceptors.intercept(
        new V3DiscoveryServer(fresh).getAggregatedDiscoveryServiceImpl(), new StreamTracker());
    server = Ports.bind(port, p -> NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", p))
        .addService(ads)
        .build());
    port = server.getPort();
    cache = fresh;
  }

  @Override
  public int openStreams() {
    return live.size();
  }

  @Override
  public long streamsOpened() {
    return opened.get();
  }

  @Override
  public synchronized String version(String typeUrl) {
    return switch (typeUrl) {
      case FakeAdsServer.CLUSTER_TYPE_URL -> "c" + clustersVersion;
      case FakeAdsServer.LISTENER_TYPE_URL -> "l" + listenersVersion;
      case FakeAdsServer.ROUTE_TYPE_URL -> "r" + routesVersion;
      default -> "e" + endpointsVersion;
    };
  }

  /** java-control-plane versions each resource by a hash of its content (VersionedResource). */
  @Override
  public synchronized String resourceVersion(String typeUrl, String name) {
    var resource = snapshot().resources(typeUrl).get(name);
    return resource == null ? "" : resource.version();
  }

  @Override
  public void breakStreams() {
    for (Stream s : live) {
      s.closeOnce(Status.UNAVAILABLE.withDescription("soak: streams broken"));
    }
  }

  @Override
  public void recycle(boolean on) {
    recycling = on;
  }

  @Override
  public void close() {
    try {
      stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Counts ADS calls and can close them; after it closed a call, java-control-plane's later writes are dropped. */
  private final class StreamTracker implements ServerInterceptor {
    @Override
    @SuppressWarnings("unchecked")
    public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
        ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
      Stream stream = new Stream(call);
      opened.incrementAndGet();
      live.add(stream);
      ServerCall<ReqT, RespT> wrapped = (ServerCall<ReqT, RespT>) (ServerCall<?, ?>) stream;
      return new ForwardingServerCallListener.SimpleForwardingServerCallListener<ReqT>(next.startCall(wrapped,
          headers)) {
        @Override
        public void onComplete() {
          live.remove(stream);
          super.onComplete();
        }

        @Override
        public void onCancel() {
          live.remove(stream);
          super.onCancel();
        }
      };
    }
  }

  private final class Stream extends ForwardingServerCall.SimpleForwardingServerCall<Object, Object> {
    private boolean closed; // guarded by this

    @SuppressWarnings("unchecked")
    Stream(ServerCall<?, ?> call) {
      super((ServerCall<Object, Object>) call);
    }

    @Override
    public synchronized void sendMessage(Object message) {
      if (closed) {
        return;
      }
      super.sendMessage(message);
      if (recycling) {
        closeOnce(Status.OK);
      }
    }

    @Override
    public synchronized void close(Status status, Metadata trailers) {
      if (!closed) {
        closed = true;
        live.remove(this);
        super.close(status, trailers);
      }
    }

    synchronized void closeOnce(Status status) {
      close(status, new Metadata());
    }
  }
}
