package io.jxds.examples;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;

import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.jxds.examples.Topology.EndpointInfo;
import io.jxds.examples.Topology.LocalityInfo;
import io.jxds.testing.EndpointsBuilder;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.XdsResources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's control plane: the embedded {@link FakeAdsServer} and the state it serves for one
 * cluster (locality weights, endpoint weights, drop percentage). Every setter pushes a new
 * ClusterLoadAssignment at once, as a real control plane would on a config change.
 */
final class DemoControlPlane {
  /**
   * One locality of the demo.
   *
   * @param region the locality's {@code region}
   * @param zone the locality's {@code zone}; the table shows {@code zone-ZONE}
   * @param priority 0 is the highest
   * @param backends names of the {@link DemoBackends} in it
   */
  record LocalitySpec(String region, String zone, int priority, List<String> backends) {
    String label() {
      return "zone-" + zone;
    }
  }

  /** Three localities at priority 0, one at priority 1; two backends each. */
  static final List<LocalitySpec> LAYOUT = List.of(
      new LocalitySpec("us-east", "a", 0, List.of("a1", "a2")),
      new LocalitySpec("us-east", "b", 0, List.of("b1", "b2")),
      new LocalitySpec("us-east", "c", 0, List.of("c1", "c2")),
      new LocalitySpec("us-west", "d", 1, List.of("d1", "d2")));

  private final FakeAdsServer ads;
  private final String cluster;
  private final DemoBackends backends;
  private final Map<String, Long> localityWeights = new HashMap<>();
  private final Map<String, Long> endpointWeights = new HashMap<>();
  private int dropPercent;

  DemoControlPlane(FakeAdsServer ads, String cluster, DemoBackends backends) {
    this.ads = ads;
    this.cluster = cluster;
    this.backends = backends;
  }

  /** The cluster's name. */
  String cluster() {
    return cluster;
  }

  /** Which backend address is in which locality. */
  Topology topology() {
    List<LocalityInfo> localities = new ArrayList<>();
    for (LocalitySpec spec : LAYOUT) {
      localities.add(new LocalityInfo(spec.label(), spec.priority(),
          spec.backends().stream().map(b -> new EndpointInfo(b, backends.address(b))).toList()));
    }
    return new Topology(localities);
  }

  /** Serves the Cluster (CDS) and its endpoints (EDS). */
  synchronized void publish() {
    ads.setClusters(XdsResources.cluster(cluster).build());
    pushEndpoints();
  }

  /** Removes the Cluster: state-of-the-world CDS without it means deleted. */
  synchronized void removeCluster() {
    ads.setClusters();
  }

  /** Sets each locality's {@code load_balancing_weight}, by label ({@code zone-a}). */
  synchronized void setLocalityWeights(Map<String, Long> weights) {
    localityWeights.putAll(weights);
    pushEndpoints();
  }

  /** Sets one endpoint's {@code load_balancing_weight}, by backend name. */
  synchronized void setEndpointWeight(String backend, long weight) {
    endpointWeights.put(backend, weight);
    pushEndpoints();
  }

  /** Sets {@code policy.drop_overloads} to one category dropping {@code percent} %. */
  synchronized void setDropPercent(int percent) {
    dropPercent = percent;
    pushEndpoints();
  }

  private void pushEndpoints() {
    EndpointsBuilder eds = XdsResources.endpoints(cluster);
    for (LocalitySpec spec : LAYOUT) {
      eds.locality(spec.region(), spec.zone(), "", l -> {
        l.priority(spec.priority()).weight(localityWeights.getOrDefault(spec.label(), 1L));
        for (String b : spec.backends()) {
          l.endpoint("127.0.0.1", backends.port(b), HEALTHY, endpointWeights.getOrDefault(b, 1L));
        }
      });
    }
    if (dropPercent > 0) {
      eds.drop("throttle", dropPercent, FractionalPercent.DenominatorType.HUNDRED);
    }
    ads.setEndpoints(eds.build());
  }
}
