package io.jxds.balancer.internal.priority;

import io.jxds.api.model.Endpoint;
import io.jxds.api.model.LocalityId;
import io.jxds.balancer.internal.locality.LocalityConfig;
import io.jxds.balancer.internal.locality.LocalityGroup;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sticky names for priority children: a child keeps its name, and so its connections, while its
 * priority's localities overlap the ones it served, wherever that priority moves.
 *
 * <p>grpc-java names a priority after the first of its localities whose previous child's name is
 * free; it keys that by locality alone, which cannot tell apart one locality listed at two
 * priorities (envoy allows it, and Istio's failover priorities produce it, each time with other
 * endpoints). The rules here, applied to the priorities of a new config in order, highest first:
 *
 * <ol>
 *   <li>The candidates are the children of the previous config whose name no higher priority of
 *       this config took and that shared at least one locality id with this priority.
 *   <li>The candidate sharing the most localities wins; on a tie, the one sharing the most
 *       endpoint addresses within those localities (this is what tells the copies of one
 *       locality apart); on a further tie, the one that was the higher priority before.
 *   <li>No candidate: a new name {@code cluster[childN]}, N counting from 1 per balancer.
 * </ol>
 *
 * <p>So every previous name goes to at most one priority, an unchanged config keeps every name,
 * and a name once dropped is never handed out again (gRFC A115 closes a removed child at once,
 * so a reused name would be a different child under an old name).
 */
final class PriorityChildNames {
  /** The previous config's children, highest priority first. */
  private List<Named> previous = List.of();
  private int nextNumber = 1;

  /** A child's name and what it served: endpoint addresses by locality. */
  private record Named(String name, Map<LocalityId, Set<InetSocketAddress>> localities) {}

  /** Names for the priorities of a new config, in order; remembers them for the next call. */
  List<String> assign(String clusterName, List<LocalityGroup> priorities) {
    List<Named> unclaimed = new ArrayList<>(previous);
    List<Named> next = new ArrayList<>(priorities.size());
    List<String> names = new ArrayList<>(priorities.size());
    for (LocalityGroup group : priorities) {
      Map<LocalityId, Set<InetSocketAddress>> localities = addressesByLocality(group);
      Named match = bestMatch(localities, unclaimed);
      String name;
      if (match != null) {
        unclaimed.remove(match);
        name = match.name();
      } else {
        name = clusterName + "[child" + nextNumber++ + "]";
      }
      names.add(name);
      next.add(new Named(name, localities));
    }
    previous = List.copyOf(next);
    return names;
  }

  /** Rule 2; the first of equals wins, and {@code candidates} are in previous priority order. */
  private static Named bestMatch(
      Map<LocalityId, Set<InetSocketAddress>> localities, List<Named> candidates) {
    Named best = null;
    int bestLocalities = 0;
    int bestAddresses = 0;
    for (Named candidate : candidates) {
      int sharedLocalities = 0;
      int sharedAddresses = 0;
      for (Map.Entry<LocalityId, Set<InetSocketAddress>> locality : localities.entrySet()) {
        Set<InetSocketAddress> served = candidate.localities().get(locality.getKey());
        if (served != null) {
          sharedLocalities++;
          for (InetSocketAddress address : locality.getValue()) {
            if (served.contains(address)) {
              sharedAddresses++;
            }
          }
        }
      }
      if (sharedLocalities > bestLocalities
          || (sharedLocalities == bestLocalities && sharedAddresses > bestAddresses)) {
        best = candidate;
        bestLocalities = sharedLocalities;
        bestAddresses = sharedAddresses;
      }
    }
    return best;
  }

  /** A repeated locality id counts once, the first, as in the locality balancer. */
  private static Map<LocalityId, Set<InetSocketAddress>> addressesByLocality(LocalityGroup group) {
    Map<LocalityId, Set<InetSocketAddress>> localities = new LinkedHashMap<>();
    for (LocalityConfig locality : group.localities()) {
      if (!localities.containsKey(locality.id())) {
        Set<InetSocketAddress> addresses = new HashSet<>();
        for (Endpoint endpoint : locality.endpoints()) {
          addresses.add(endpoint.address());
        }
        localities.put(locality.id(), addresses);
      }
    }
    return localities;
  }
}
