package io.jxds.soak;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.Status;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.RecordedRequest;
import io.jxds.testing.XdsResources;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntUnaryOperator;

/**
 * FakeAdsServer as the soak's control plane, with its faults: held responses, broken streams, raw
 * bad resources, and (done here, by watching ACKs) streams closed after each response.
 */
final class FakeControlPlane implements SoakControlPlane {
  private final FakeAdsServer server = FakeAdsServer.loopback();
  private Map<String, Message> clusters = Map.of();
  private Map<String, Message> endpoints = Map.of();
  private Map<String, Message> listeners = Map.of();
  private Map<String, Message> routeConfigs = Map.of();
  private long maxStreamId;
  private volatile Thread recycler;
  private int badNonce;

  FakeControlPlane() {
    server.start();
  }

  @Override
  public String serverUri() {
    return server.serverUri();
  }

  @Override
  public synchronized void publish(List<ClusterModel> model, RouteModel routes, IntUnaryOperator ports,
      boolean newerVersion) {
    Map<String, Message> c = new LinkedHashMap<>();
    Map<String, Message> e = new LinkedHashMap<>();
    for (ClusterModel m : model) {
      if (!m.deleted) {
        c.put(m.name, m.clusterProto(ports));
        if (!m.dns() && !m.aggregate()) { // neither has a ClusterLoadAssignment
          e.put(m.edsName(), m.endpointsProto(ports));
        }
      }
    }
    if (newerVersion || !c.equals(clusters)) {
      server.setResources(FakeAdsServer.CLUSTER_TYPE_URL, c);
      clusters = c;
    }
    if (newerVersion || !e.equals(endpoints)) {
      server.setResources(FakeAdsServer.ENDPOINTS_TYPE_URL, e);
      endpoints = e;
    }
    Map<String, Message> l = new LinkedHashMap<>();
    Map<String, Message> r = new LinkedHashMap<>();
    for (RouteModel.ListenerModel m : routes.listeners) {
      if (!m.deleted) {
        l.put(m.name, m.listenerProto());
      }
      if (m.rds) {
        r.put(m.routesName(), m.routesProto());
      }
    }
    if (newerVersion || !l.equals(listeners)) {
      server.setResources(FakeAdsServer.LISTENER_TYPE_URL, l);
      listeners = l;
    }
    if (newerVersion || !r.equals(routeConfigs)) {
      server.setResources(FakeAdsServer.ROUTE_TYPE_URL, r);
      routeConfigs = r;
    }
  }

  @Override
  public void stop() {
    server.stop();
  }

  @Override
  public void start() {
    server.start();
  }

  @Override
  public int openStreams() {
    return server.streams().count();
  }

  /** Reads the stream ids of the requests recorded so far, then forgets them (a long run must not grow). */
  @Override
  public synchronized long streamsOpened() {
    if (recycler == null) {
      for (RecordedRequest r : server.requests().all()) {
        maxStreamId = Math.max(maxStreamId, r.streamId());
      }
      server.requests().clear();
    }
    return maxStreamId;
  }

  @Override
  public String version(String typeUrl) {
    return server.version(typeUrl);
  }

  @Override
  public String resourceVersion(String typeUrl, String name) {
    return server.resourceVersion(typeUrl, name);
  }

  @Override
  public void breakStreams() {
    server.faults().breakStreams(Status.UNAVAILABLE.withDescription("soak: streams broken"));
  }

  @Override
  public synchronized void recycle(boolean on) {
    Thread running = recycler;
    if (on && running == null) {
      Thread t = new Thread(this::recycleLoop, "soak-fake-recycler");
      t.setDaemon(true);
      recycler = t;
      t.start();
    } else if (!on && running != null) {
      recycler = null;
      running.interrupt();
      try {
        running.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Closes a stream (status OK, as a server recycling its streams) as soon as the client answered a response on it. */
  private void recycleLoop() {
    long lastClosed = 0;
    while (recycler == Thread.currentThread()) {
      long answered = Math.max(answeredOn(FakeAdsServer.CLUSTER_TYPE_URL),
          answeredOn(FakeAdsServer.ENDPOINTS_TYPE_URL));
      if (answered > lastClosed) {
        server.faults().breakStreams(Status.OK);
        lastClosed = answered;
      }
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private long answeredOn(String typeUrl) {
    long id = 0;
    Optional<RecordedRequest> ack = server.requests().lastAck(typeUrl);
    Optional<RecordedRequest> nack = server.requests().lastNack(typeUrl);
    if (ack.isPresent()) {
      id = ack.get().streamId();
    }
    if (nack.isPresent()) {
      id = Math.max(id, nack.get().streamId());
    }
    synchronized (this) {
      maxStreamId = Math.max(maxStreamId, id);
    }
    return id;
  }

  void holdResponses() {
    server.faults().holdResponses();
  }

  void releaseResponses() {
    server.faults().releaseResponses();
  }

  /**
   * Sends, outside the server's versioning, a response at the current version with one invalid
   * resource for {@code c}: a Cluster of type STATIC (jxds serves EDS clusters only) among all the
   * current clusters (state of the world: leaving the others out would delete them), or a
   * ClusterLoadAssignment with priorities 0 and 2 (gRFC A27: not contiguous). Both are NACKed and
   * the last good value stays.
   */
  synchronized void sendBad(ClusterModel c, boolean cds, IntUnaryOperator ports, boolean delta) {
    if (delta) {
      sendBadDelta(c, cds, ports);
      return;
    }
    DiscoveryResponse.Builder response = DiscoveryResponse.newBuilder().setNonce("soak-bad-" + (++badNonce));
    if (cds) {
      response.setTypeUrl(FakeAdsServer.CLUSTER_TYPE_URL).setVersionInfo(server
          .version(FakeAdsServer.CLUSTER_TYPE_URL));
      for (Map.Entry<String, Message> e : clusters.entrySet()) {
        Message m = e.getKey().equals(c.name)
            ? XdsResources.cluster(c.name).edsServiceName(c.edsName()).type(Cluster.DiscoveryType.STATIC).build()
            : e.getValue();
        response.addResources(Any.pack(m));
      }
    } else {
      response.setTypeUrl(FakeAdsServer.ENDPOINTS_TYPE_URL)
          .setVersionInfo(server.version(FakeAdsServer.ENDPOINTS_TYPE_URL))
          .addResources(Any.pack(badEndpoints(c, ports)));
    }
    server.faults().sendRaw(response.build());
  }

  /** Delta: the one invalid resource, as a change; the others are unchanged by leaving them out. */
  private void sendBadDelta(ClusterModel c, boolean cds, IntUnaryOperator ports) {
    String typeUrl = cds ? FakeAdsServer.CLUSTER_TYPE_URL : FakeAdsServer.ENDPOINTS_TYPE_URL;
    Message bad = cds
        ? XdsResources.cluster(c.name).edsServiceName(c.edsName()).type(Cluster.DiscoveryType.STATIC).build()
        : badEndpoints(c, ports);
    server.faults().sendRawDelta(DeltaDiscoveryResponse.newBuilder()
        .setTypeUrl(typeUrl)
        .setSystemVersionInfo(server.version(typeUrl))
        .setNonce("soak-bad-" + (++badNonce))
        .addResources(Resource.newBuilder()
            .setName(cds ? c.name : c.edsName())
            .setVersion("soak-bad-" + badNonce)
            .setResource(Any.pack(bad)))
        .build());
  }

  private static ClusterLoadAssignment badEndpoints(ClusterModel c, IntUnaryOperator ports) {
    return XdsResources.endpoints(c.edsName())
        .locality(ClusterModel.REGION, "bad0", "", l -> l.priority(0).endpoint("127.0.0.1", ports.applyAsInt(0),
            io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY))
        .locality(ClusterModel.REGION, "bad2", "", l -> l.priority(2).endpoint("127.0.0.1", ports.applyAsInt(1),
            io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY))
        .build();
  }

  List<Throwable> unexpectedErrors() {
    return server.unexpectedErrors();
  }

  @Override
  public void close() {
    recycle(false);
    server.stop();
  }
}
