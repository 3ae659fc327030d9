package io.jxds.balancer.priority;

import io.jxds.api.model.LocalityId;
import io.jxds.balancer.locality.LocalityConfig;
import io.jxds.balancer.locality.LocalityGroup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sticky names for priority children, as grpc-java gives them (reference §4.3): for each priority
 * in order, the first of its localities that belonged to a child of the previous config whose name
 * is not yet taken gives that name; otherwise a new {@code cluster[childN]}, N counting from 1.
 * A dropped name is never handed out again, so a child's identity, and its connections, follow
 * its localities when priorities are renumbered.
 */
final class PriorityChildNames {
  private Map<LocalityId, String> owners = new HashMap<>();
  private int nextNumber = 1;

  /** Names for the priorities of a new config, in order; remembers them for the next call. */
  List<String> assign(String clusterName, List<LocalityGroup> priorities) {
    Set<String> taken = new HashSet<>();
    List<String> names = new ArrayList<>(priorities.size());
    Map<LocalityId, String> nextOwners = new HashMap<>();
    for (LocalityGroup group : priorities) {
      String name = null;
      for (LocalityConfig locality : group.localities()) {
        String previous = owners.get(locality.id());
        if (previous != null && !taken.contains(previous)) {
          name = previous;
          break;
        }
      }
      if (name == null) {
        name = clusterName + "[child" + nextNumber++ + "]";
      }
      taken.add(name);
      names.add(name);
      for (LocalityConfig locality : group.localities()) {
        nextOwners.putIfAbsent(locality.id(), name);
      }
    }
    owners = nextOwners;
    return names;
  }
}
