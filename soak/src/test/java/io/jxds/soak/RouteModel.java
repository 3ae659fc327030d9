package io.jxds.soak;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.jxds.testing.XdsResources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The listeners of the soak's {@code xds:///NAME} channels as the control plane states them: each
 * has one virtual host (domain: its name) with two routes, {@code lane} (a path prefix and a
 * header matcher on {@value #LANE_HEADER}, possibly inverted) then {@code default} (prefix "/"),
 * each to one cluster or to weighted clusters. {@code svc0} gets its routes over RDS, {@code svc1}
 * inline. Mutable, changed only by operations on the soak's own thread.
 */
final class RouteModel {
  static final String LANE_HEADER = "x-soak-lane";
  /** The header a route's hash policy hashes on: each {@code xds:///} channel sends its own value. */
  static final String USER_HEADER = "x-soak-user";
  /** The path every soak RPC has. */
  static final String PATH = "/" + SoakBackends.WHO.getFullMethodName();
  /** The lane route's prefix: one that matches {@link #PATH}, one that does not. */
  static final String[] PREFIXES = {"/jxds.soak.", "/jxds.elsewhere."};
  static final String[] LANES = {"a", "b"};

  final List<ListenerModel> listeners = new ArrayList<>();

  RouteModel() {
    ListenerModel svc0 = new ListenerModel("svc0", true);
    // The lane route starts on RING_HASH cluster c5 with a hash policy, a timeout and retries, so
    // that every run checks a sticky key and a retrying route from the start.
    svc0.lane.put("c5", 1);
    svc0.lanePolicy = new RoutePolicy(4500, 2, true);
    svc0.fallback.put("c2", 1);
    ListenerModel svc1 = new ListenerModel("svc1", false);
    svc1.lane.put("c1", 1);
    svc1.lane.put(SoakModel.DNS_CLUSTER, 1);
    svc1.fallback.put("c0", 1);
    svc1.fallback.put("c2", 2);
    svc1.laneValue = "b";
    listeners.add(svc0);
    listeners.add(svc1);
  }

  ListenerModel listener(String name) {
    for (ListenerModel l : listeners) {
      if (l.name.equals(name)) {
        return l;
      }
    }
    throw new IllegalArgumentException("no listener " + name);
  }

  boolean isListener(String name) {
    for (ListenerModel l : listeners) {
      if (l.name.equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** Whether any listener's routes (deleted listeners' too) name {@code cluster}. */
  boolean references(String cluster) {
    for (ListenerModel l : listeners) {
      if (l.clusters().contains(cluster)) {
        return true;
      }
    }
    return false;
  }

  RouteModel copy() {
    RouteModel m = new RouteModel();
    m.listeners.clear();
    for (ListenerModel l : listeners) {
      m.listeners.add(l.copy());
    }
    return m;
  }

  /** One listener and its one virtual host's two routes. */
  static final class ListenerModel {
    final String name;
    /** Routes over RDS (else inline in the listener). */
    final boolean rds;
    boolean deleted;
    String lanePrefix = PREFIXES[0];
    String laneValue = "a";
    boolean invert;
    /** The lane route's clusters and weights (one entry: a {@code cluster} action). */
    final Map<String, Integer> lane = new LinkedHashMap<>();
    /** The default route's. */
    final Map<String, Integer> fallback = new LinkedHashMap<>();
    /** The lane route's timeout, retries and hash policy; the default route's. */
    RoutePolicy lanePolicy = RoutePolicy.NONE;
    RoutePolicy fallbackPolicy = RoutePolicy.NONE;
    /** The virtual host's {@code retry_policy}: its {@code num_retries}, 0 for none. */
    int hostRetries;

    ListenerModel(String name, boolean rds) {
      this.name = name;
      this.rds = rds;
    }

    String routesName() {
      return name + "-routes";
    }

    ListenerModel copy() {
      ListenerModel l = new ListenerModel(name, rds);
      l.deleted = deleted;
      l.lanePrefix = lanePrefix;
      l.laneValue = laneValue;
      l.invert = invert;
      l.lane.putAll(lane);
      l.fallback.putAll(fallback);
      l.lanePolicy = lanePolicy;
      l.fallbackPolicy = fallbackPolicy;
      l.hostRetries = hostRetries;
      return l;
    }

    Map<String, Integer> route(boolean laneRoute) {
      return laneRoute ? lane : fallback;
    }

    RoutePolicy policy(boolean laneRoute) {
      return laneRoute ? lanePolicy : fallbackPolicy;
    }

    /** The retries a call on the route gets: the route's policy, else the virtual host's (gRFC A44). */
    int retries(boolean laneRoute) {
      int own = policy(laneRoute).retries();
      return own > 0 ? own : hostRetries;
    }

    /** Whether a channel sending {@code lane} in {@value #LANE_HEADER} takes the lane route (gRFC A28). */
    boolean takesLane(String channelLane) {
      return PATH.startsWith(lanePrefix) && (channelLane.equals(laneValue) != invert);
    }

    /** Every cluster the routes name. */
    Set<String> clusters() {
      Set<String> out = new TreeSet<>(lane.keySet());
      out.addAll(fallback.keySet());
      return out;
    }

    Listener listenerProto() {
      var b = XdsResources.listener(name);
      return rds ? b.rdsRouteConfig(routesName()).build() : b.inlineRouteConfig(routesProto()).build();
    }

    RouteConfiguration routesProto() {
      HeaderMatcher header = HeaderMatcher.newBuilder().setName(LANE_HEADER).setExactMatch(laneValue)
          .setInvertMatch(invert).build();
      VirtualHost.Builder host = VirtualHost.newBuilder().setName(name + "-vh").addDomains(name)
          .addRoutes(Route.newBuilder().setName("lane")
              .setMatch(RouteMatch.newBuilder().setPrefix(lanePrefix).addHeaders(header))
              .setRoute(action(lane, lanePolicy)))
          .addRoutes(Route.newBuilder().setName("default")
              .setMatch(RouteMatch.newBuilder().setPrefix("/"))
              .setRoute(action(fallback, fallbackPolicy)));
      if (hostRetries > 0) {
        host.setRetryPolicy(RoutePolicy.retryPolicy(hostRetries));
      }
      return RouteConfiguration.newBuilder().setName(routesName()).addVirtualHosts(host).build();
    }

    private static RouteAction action(Map<String, Integer> weights, RoutePolicy policy) {
      RouteAction.Builder action = RouteAction.newBuilder();
      if (weights.size() == 1) {
        action.setCluster(weights.keySet().iterator().next());
      } else {
        WeightedCluster.Builder w = WeightedCluster.newBuilder();
        weights.forEach((c, weight) -> w.addClusters(
            WeightedCluster.ClusterWeight.newBuilder().setName(c).setWeight(UInt32Value.of(weight))));
        action.setWeightedClusters(w);
      }
      return policy.applyTo(action).build();
    }

    /** For traces: {@code svc0[lane /jxds.soak. a {c0=3, c1=1}; default {c2=1}]}. */
    String describe() {
      if (deleted) {
        return name + " (deleted)";
      }
      return name + "[lane " + lanePrefix + " " + (invert ? "!" : "") + laneValue + " " + lane + lanePolicy.describe()
          + "; default " + fallback + fallbackPolicy.describe() + (hostRetries > 0 ? "; host retries " + hostRetries
          : "") + "]";
    }
  }
}
