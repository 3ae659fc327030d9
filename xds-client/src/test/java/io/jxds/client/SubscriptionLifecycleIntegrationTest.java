package io.jxds.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.DiscoveryServerCallbacks;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceTypes;
import io.jxds.api.WatchHandle;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.testing.Poll;
import io.jxds.testing.XdsResources;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * What the client subscribes to on the wire, against java-control-plane's SimpleCache in ADS mode
 * (V3DiscoveryServer on a loopback Netty port). SimpleCache in ADS mode answers a request for a
 * type only once every name in it is in the snapshot, and reads an empty {@code resource_names}
 * as "every resource of the type": a client must neither keep an unwatched name on the wire nor
 * clear the list to nothing.
 */
class SubscriptionLifecycleIntegrationTest {
  private static final String GROUP = "jxds-test";
  private static final Executor DIRECT = Runnable::run;

  private final List<DiscoveryResponse> cdsResponses = new CopyOnWriteArrayList<>();
  private final List<DiscoveryRequest> cdsRequests = new CopyOnWriteArrayList<>();
  private SimpleCache<String> cache;
  @AutoClose("shutdownNow") // never shutdown(): it waits for open ADS streams forever
  private Server server;
  @AutoClose private DefaultXdsClient client;

  private void startServer(Snapshot first) throws IOException {
    cache = new SimpleCache<>(node -> GROUP);
    cache.setSnapshot(GROUP, first);
    DiscoveryServerCallbacks recorder =
        new DiscoveryServerCallbacks() {
          @Override
          public void onV3StreamRequest(long streamId, DiscoveryRequest request) {
            if (request.getTypeUrl().equals(ResourceTypes.CLUSTER_TYPE_URL)) {
              cdsRequests.add(request);
            }
          }

          @Override
          public void onV3StreamDeltaRequest(long streamId, DeltaDiscoveryRequest request) {}

          @Override
          public void onV3StreamResponse(long streamId, DiscoveryRequest request, DiscoveryResponse response) {
            if (response.getTypeUrl().equals(ResourceTypes.CLUSTER_TYPE_URL)) {
              cdsResponses.add(response);
            }
          }
        };
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(new V3DiscoveryServer(recorder, cache).getAggregatedDiscoveryServiceImpl())
            .build()
            .start();
  }

  private DefaultXdsClient newClient(Duration resourceTimeout) {
    return newClient(resourceTimeout, Duration.ofMinutes(5));
  }

  private DefaultXdsClient newClient(Duration resourceTimeout, Duration cacheRetention) {
    client =
        XdsClientBuilder.forTarget("127.0.0.1:" + server.getPort(), InsecureChannelCredentials.create())
            .node(Node.newBuilder().setId("app-1").build())
            .resourceTimeout(resourceTimeout)
            .cacheRetention(cacheRetention)
            .build();
    return client;
  }

  /** Clusters {@code names}, each with endpoints named after it, at {@code version}. */
  private static Snapshot snapshot(String version, String... names) {
    List<Cluster> clusters = new ArrayList<>();
    List<ClusterLoadAssignment> endpoints = new ArrayList<>();
    for (String name : names) {
      clusters.add(XdsResources.cluster(name).edsServiceName(name).build());
      endpoints.add(
          XdsResources.endpoints(name)
              .locality("eu", "eu-1a", "", l -> l.endpoint("10.0.0.1", 8080, HealthStatus.HEALTHY))
              .build());
    }
    return Snapshot.create(clusters, endpoints, List.of(), List.of(), List.of(), version);
  }

  private static List<String> names(DiscoveryResponse response) {
    return response.getResourcesList().stream()
        .map(any -> {
          try {
            return any.unpack(Cluster.class).getName();
          } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
          }
        })
        .toList();
  }

  @Test
  void clusterUnwatchedThenRemovedDoesNotHoldBackTheNextCluster() throws Exception {
    startServer(snapshot("1", "a", "b"));
    newClient(Duration.ofSeconds(15));
    RecordingWatcher<ClusterUpdate> a = new RecordingWatcher<>();
    WatchHandle handle = client.watchCluster("a", a, DIRECT);
    Poll.until("cluster a", () -> a.updates().size() == 1);
    handle.cancel(); // the client's sync context runs this before the next watch below

    cache.setSnapshot(GROUP, snapshot("2", "b"));
    long start = System.nanoTime();
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster("b", b, DIRECT);

    // Had "a" stayed subscribed, SimpleCache would hold the whole CDS response back (a is gone)
    // and b would hear nothing for the 15 s resource timeout.
    Poll.until("cluster b within 1 s", Duration.ofSeconds(1), () -> b.updates().size() == 1);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
    assertThat(b.updates().get(0).clusterName()).isEqualTo("b");
    // The cached value of a outlives its subscription: a watcher coming back gets it at once.
    RecordingWatcher<ClusterUpdate> again = new RecordingWatcher<>();
    client.watchCluster("a", again, DIRECT);
    Poll.until("cached a", Duration.ofSeconds(1), () -> again.events().size() == 1);
    assertThat(again.updates()).hasSize(1);
  }

  @Test
  void lastClusterUnwatchedDoesNotTurnIntoAWildcardSubscription() throws Exception {
    startServer(snapshot("1", "a", "b", "c"));
    newClient(Duration.ofSeconds(15));
    RecordingWatcher<ClusterUpdate> a = new RecordingWatcher<>();
    RecordingWatcher<EndpointsUpdate> aEndpoints = new RecordingWatcher<>();
    WatchHandle handle = client.watchCluster("a", a, DIRECT);
    client.watchEndpoints("a", aEndpoints, DIRECT);
    Poll.until("cluster and endpoints of a", () -> a.updates().size() == 1 && aEndpoints.updates().size() == 1);
    Poll.until("CDS ACK seen by the server", () -> cdsRequests.stream().anyMatch(r -> r.getVersionInfo().equals("1")));

    int responsesBefore = cdsResponses.size();
    int requestsBefore = cdsRequests.size();
    handle.cancel();
    Poll.until("a unwatched", () -> client.status().resource(ResourceTypes.CLUSTER_TYPE_URL, "a").isEmpty());
    cache.setSnapshot(GROUP, snapshot("2", "a", "b", "c", "d"));
    // SimpleCache answers CDS before EDS: once the EDS version 2 is ACKed, any CDS push was sent.
    Poll.until("endpoints version 2", () -> endpointsVersion("a").equals("2"));

    List<DiscoveryResponse> after = List.copyOf(cdsResponses.subList(responsesBefore, cdsResponses.size()));
    List<DiscoveryRequest> requestsAfter = List.copyOf(cdsRequests.subList(requestsBefore, cdsRequests.size()));
    // An empty resource_names would read as "every cluster" to SimpleCache (it answers one with
    // the whole snapshot, at once or at its next change). The client sends none: the request for
    // [a] stands, so the server pushes a alone, and the client ACKs it naming a.
    assertThat(after).allSatisfy(r -> assertThat(names(r)).as("CDS response %s", r.getVersionInfo()).containsOnly("a"));
    assertThat(requestsAfter).allSatisfy(r -> assertThat(r.getResourceNamesList()).containsExactly("a"));
    assertThat(a.events()).hasSize(1);

    // The type is still usable: a new cluster is requested alone and answered at once.
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster("b", b, DIRECT);
    Poll.until("cluster b", Duration.ofSeconds(1), () -> b.updates().size() == 1);
    // A late ACK of a's version 2 may still come first: look at the first request naming b.
    List<DiscoveryRequest> later =
        List.copyOf(cdsRequests.subList(requestsBefore + requestsAfter.size(), cdsRequests.size()));
    assertThat(later).filteredOn(r -> r.getResourceNamesList().contains("b")).first()
        .satisfies(r -> assertThat(r.getResourceNamesList()).containsExactly("b"));
  }

  @Test
  void clusterRemovedWhileStillWatchedHoldsBackTheNextClusterAndStatusSaysWhy() throws Exception {
    startServer(snapshot("1", "a", "b"));
    newClient(Duration.ofSeconds(2));
    RecordingWatcher<ClusterUpdate> a1 = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> a2 = new RecordingWatcher<>();
    client.watchCluster("a", a1, DIRECT);
    WatchHandle second = client.watchCluster("a", a2, DIRECT);
    Poll.until("cluster a", () -> a1.updates().size() == 1 && a2.updates().size() == 1);
    second.cancel(); // a1 still watches a: a stays on the wire

    cache.setSnapshot(GROUP, snapshot("2", "b"));
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster("b", b, DIRECT);

    // java-control-plane in ADS mode answers a CDS request only when every name in it is in the
    // snapshot: "a" is gone, so the request [a, b] gets no response at all. a is never reported
    // deleted (no response says so) and b hears that it does not exist after the resource
    // timeout; its status names the likely cause.
    Poll.until("b does not exist", Duration.ofSeconds(10), () -> !b.events().isEmpty());
    assertThat(b.events()).containsExactly(new RecordingWatcher.DoesNotExist("b"));
    ResourceStatus status = client.status().resource(ResourceTypes.CLUSTER_TYPE_URL, "b").orElseThrow();
    assertThat(status.state()).as("its timer concluded it (gRFC A40)").isEqualTo(ResourceState.TIMEOUT);
    assertThat(status.lastError())
        .hasValueSatisfying(e -> assertThat(e).contains("no CDS response").contains("hold back"));
    assertThat(a1.events()).hasSize(1);
    assertThat(cdsRequests.get(cdsRequests.size() - 1).getResourceNamesList()).containsExactly("a", "b");
  }

  @Test
  void lastClusterWatchedAgainIsServedCurrentFromItsStandingRequest() throws Exception {
    startServer(snapshot("1", "a"));
    newClient(Duration.ofSeconds(15), Duration.ZERO); // nothing is retained off the wire
    RecordingWatcher<ClusterUpdate> first = new RecordingWatcher<>();
    WatchHandle handle = client.watchCluster("a", first, DIRECT);
    Poll.until("cluster a", () -> first.updates().size() == 1);
    handle.cancel(); // nothing sent: the request for [a] stands

    Snapshot changed =
        Snapshot.create(
            List.of(XdsResources.cluster("a").edsServiceName("a-v2").build()),
            List.of(), List.of(), List.of(), List.of(), "2");
    cache.setSnapshot(GROUP, changed);
    Poll.until("version 2 ACKed naming a", () -> cdsRequests.stream()
        .anyMatch(r -> r.getVersionInfo().equals("2") && r.getResourceNamesList().equals(List.of("a"))));

    // SimpleCache saw no change of names and will not send a again (the same name at the same
    // version is nothing new): the client already has it, current.
    RecordingWatcher<ClusterUpdate> again = new RecordingWatcher<>();
    client.watchCluster("a", again, DIRECT);
    Poll.until("cluster a again", Duration.ofSeconds(1), () -> again.updates().size() == 1);
    assertThat(again.updates().get(0).edsServiceName()).isEqualTo("a-v2");
    assertThat(client.status().resource(ResourceTypes.CLUSTER_TYPE_URL, "a").orElseThrow().version()).isEqualTo("2");
  }

  @Test
  void clusterWatchedAgainWhileAnotherStaysWatchedKeepsItsValueAndIsNotDeclaredMissing() throws Exception {
    startServer(snapshot("1", "a", "b"));
    newClient(Duration.ofSeconds(15));
    RecordingWatcher<ClusterUpdate> first = new RecordingWatcher<>();
    WatchHandle handle = client.watchCluster("a", first, DIRECT);
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster("b", b, DIRECT);
    Poll.until("clusters a and b", () -> first.updates().size() == 1 && b.updates().size() == 1);
    handle.cancel(); // the request for [b] goes out; a's value is retained off the wire
    Poll.until("the request without a", () -> cdsRequests.stream()
        .anyMatch(r -> r.getResourceNamesList().equals(List.of("b"))));

    // SimpleCache compares a request's names with those of the last response the client ACKed
    // ([a, b]) and its version with the snapshot's: [a, b] at version "1" is nothing new, so it
    // sends nothing. The client's value of a is at version "1", as current as the server says.
    RecordingWatcher<ClusterUpdate> again = new RecordingWatcher<>();
    client.watchCluster("a", again, DIRECT);
    Poll.until("the request with a again", () -> cdsRequests.stream()
        .filter(r -> r.getResourceNamesList().equals(List.of("a", "b"))).count() >= 2);
    Poll.until("a ACKED at version 1", Duration.ofSeconds(2), () -> client.status()
        .resource(ResourceTypes.CLUSTER_TYPE_URL, "a")
        .filter(s -> s.state() == ResourceState.ACKED && s.version().equals("1"))
        .isPresent());

    assertThat(again.events()).hasSize(1);
    assertThat(again.updates()).hasSize(1);
  }

  private String endpointsVersion(String name) {
    return client.status()
        .resource(ResourceTypes.ENDPOINTS_TYPE_URL, name)
        .map(ResourceStatus::version)
        .orElse("");
  }
}
