package io.jxds.balancer.internal.eds;

import io.jxds.api.model.Endpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.Locality;
import io.jxds.balancer.internal.locality.LocalityConfig;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns an EDS update into the priority layer's children: the EDS layer's one translation (public
 * for the control-plane toolkit, which plans priorities with it).
 */
public final class EdsPriorities {
  private EdsPriorities() {}

  /**
   * The priorities of an EDS update, as grpc-java builds them: localities grouped
   * by priority in ascending order, localities without a usable endpoint dropped, and priorities
   * left empty removed, the lower ones moving up. An update with no usable endpoint at all gives
   * an empty list, which the balancer reports as TRANSIENT_FAILURE. Every priority carries the
   * cluster's endpoint-picking {@code policy}.
   */
  public static List<LocalityGroup> of(EndpointsUpdate update, EndpointPolicy policy) {
    List<List<LocalityConfig>> byPriority = new ArrayList<>();
    for (int p = 0; p < update.priorityCount(); p++) {
      byPriority.add(new ArrayList<>());
    }
    for (Locality locality : update.localities()) {
      if (locality.hasUsableEndpoint()) {
        byPriority.get(locality.priority()).add(LocalityConfig.from(locality));
      }
    }
    List<LocalityGroup> priorities = new ArrayList<>();
    for (List<LocalityConfig> localities : byPriority) {
      if (!localities.isEmpty()) {
        priorities.add(new LocalityGroup(localities, policy));
      }
    }
    return priorities;
  }

  /**
   * The usable (HEALTHY or UNKNOWN) endpoints of {@code priorities}, each as its address set, in
   * order, each once: what outlier detection tracks (gRFC A50, the map entries).
   */
  static List<Set<SocketAddress>> addressSets(List<LocalityGroup> priorities) {
    Set<Set<SocketAddress>> seen = new LinkedHashSet<>();
    for (LocalityGroup group : priorities) {
      for (LocalityConfig locality : group.localities()) {
        for (Endpoint endpoint : locality.endpoints()) {
          if (endpoint.health().isUsable()) {
            seen.add(Set.copyOf(endpoint.addresses())); // gRFC A61: an endpoint is its set of addresses
          }
        }
      }
    }
    return List.copyOf(seen);
  }
}
