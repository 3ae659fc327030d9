package io.jxds.toolkit.internal.plan;

import io.jxds.api.model.Endpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.Locality;
import io.jxds.balancer.internal.eds.EdsPriorities;
import io.jxds.balancer.internal.locality.LocalityConfig;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.picker.SmoothWrrSequence;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import io.jxds.toolkit.EndpointPlan;
import io.jxds.toolkit.Fraction;
import io.jxds.toolkit.LocalityPlan;
import io.jxds.toolkit.PriorityPlan;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The priorities of one assignment with every share, by the balancer's own code
 * (ARCHITECTURE.md, "The load-balancing tree"), in the steady state where every usable endpoint
 * is reachable:
 *
 * <ul>
 *   <li>which priorities take part: {@link EdsPriorities#of}, the EDS layer's translation (a
 *       locality without a HEALTHY or UNKNOWN endpoint drops out, an emptied priority closes up);
 *       the first serves (gRFC A56: it is READY), the second would serve next;
 *   <li>round robin and least request: a locality's share of its priority is its slots in the
 *       locality picker's smooth weighted cycle ({@link SmoothWrrSequence#slots}, quantisation
 *       included), an endpoint's share of its locality its slots in the endpoint picker's cycle
 *       over the usable endpoints; least request walks the same cycle while endpoints are equally
 *       busy;
 *   <li>ring hash and maglev: {@link HashShares}.
 * </ul>
 */
final class PriorityPlanner {
  /** The priorities, and which serves and which is next. */
  record Planned(List<PriorityPlan> priorities, OptionalInt serving, OptionalInt next) {}

  private PriorityPlanner() {}

  static Planned plan(LbPolicy policy, EndpointsUpdate update) {
    EndpointPolicy endpointPolicy = new EndpointPolicy(policy, "");
    List<LocalityGroup> groups = EdsPriorities.of(update, endpointPolicy);
    // The groups are the priorities with a usable locality, in order: match them to the
    // assignment's numbers.
    Map<Integer, LocalityGroup> groupOf = new HashMap<>();
    List<Integer> usable = new ArrayList<>();
    int g = 0;
    for (int p = 0; p < update.priorityCount(); p++) {
      if (hasUsableLocality(update, p)) {
        if (g >= groups.size()) {
          throw new IllegalStateException("EdsPriorities gave " + groups.size() + " priorities, fewer than usable");
        }
        groupOf.put(p, groups.get(g++));
        usable.add(p);
      }
    }
    if (g != groups.size()) {
      throw new IllegalStateException("EdsPriorities gave " + groups.size() + " priorities, " + g + " usable");
    }
    OptionalInt serving = usable.isEmpty() ? OptionalInt.empty() : OptionalInt.of(usable.get(0));
    OptionalInt next = usable.size() < 2 ? OptionalInt.empty() : OptionalInt.of(usable.get(1));
    List<PriorityPlan> priorities = new ArrayList<>();
    for (int p = 0; p < update.priorityCount(); p++) {
      LocalityGroup group = groupOf.get(p);
      PriorityPlan.Role role = group == null ? PriorityPlan.Role.NO_USABLE_ENDPOINTS
          : p == serving.getAsInt() ? PriorityPlan.Role.SERVING
          : next.isPresent() && p == next.getAsInt() ? PriorityPlan.Role.NEXT
          : PriorityPlan.Role.STANDBY;
      boolean servingNow = role == PriorityPlan.Role.SERVING;
      Map<InetSocketAddress, Fraction> endpointShares = group == null ? Map.of()
          : endpointPolicy.hashesRequests() ? HashShares.of(group) : roundRobinShares(group);
      Map<Locality, Fraction> localityShares = group == null ? Map.of() : localityShares(update, p, group,
          endpointShares);
      List<LocalityPlan> localities = new ArrayList<>();
      for (Locality locality : update.localities()) {
        if (locality.priority() != p) {
          continue;
        }
        Fraction inPriority = localityShares.getOrDefault(locality, Fraction.ZERO);
        List<EndpointPlan> endpoints = new ArrayList<>();
        for (Endpoint e : locality.endpoints()) {
          Fraction share = endpointShares.getOrDefault(e.address(), Fraction.ZERO);
          endpoints.add(new EndpointPlan(hostPort(e.address()), locality.id(), p, e.health(), e.weight(),
              servingNow ? share : Fraction.ZERO, share));
        }
        localities.add(new LocalityPlan(locality.id(), p, locality.weight(), locality.hasUsableEndpoint(),
            servingNow ? inPriority : Fraction.ZERO, inPriority, endpoints));
      }
      priorities.add(new PriorityPlan(p, role, localities));
    }
    return new Planned(priorities, serving, next);
  }

  private static boolean hasUsableLocality(EndpointsUpdate update, int priority) {
    for (Locality l : update.localities()) {
      if (l.priority() == priority && l.hasUsableEndpoint()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Round robin and least request: locality slots × endpoint slots, each over its picker's cycle
   * (the locality picker over the group's localities, all READY; each endpoint picker over its
   * locality's usable endpoints, all READY).
   */
  private static Map<InetSocketAddress, Fraction> roundRobinShares(LocalityGroup group) {
    List<LocalityConfig> localities = group.localities();
    long[] weights = new long[localities.size()];
    for (int i = 0; i < weights.length; i++) {
      weights[i] = localities.get(i).weight();
    }
    List<Fraction> localityShares = cycleShares(weights);
    Map<InetSocketAddress, Fraction> shares = new HashMap<>();
    for (int i = 0; i < localities.size(); i++) {
      List<Endpoint> usable = localities.get(i).endpoints().stream().filter(e -> e.health().isUsable()).toList();
      long[] endpointWeights = new long[usable.size()];
      for (int j = 0; j < usable.size(); j++) {
        endpointWeights[j] = usable.get(j).weight();
      }
      List<Fraction> inLocality = cycleShares(endpointWeights);
      Fraction localityShare = localityShares.get(i);
      // Endpoints of one weight share one Fraction: a plan of 100 000 endpoints holds a few hundred.
      Map<Fraction, Fraction> products = new IdentityHashMap<>();
      for (int j = 0; j < usable.size(); j++) {
        shares.put(usable.get(j).address(), products.computeIfAbsent(inLocality.get(j), localityShare::times));
      }
    }
    return shares;
  }

  /** Each entry's slots in {@link SmoothWrrSequence}'s cycle over the whole cycle. */
  static List<Fraction> cycleShares(long[] weights) {
    int[] slots = SmoothWrrSequence.slots(weights);
    long total = 0;
    for (int s : slots) {
      total += s;
    }
    List<Fraction> shares = new ArrayList<>(slots.length);
    Map<Integer, Fraction> bySlots = new HashMap<>(); // entries of equal slots share one Fraction
    long cycle = total;
    for (int s : slots) {
      shares.add(bySlots.computeIfAbsent(s, k -> Fraction.of(k, cycle)));
    }
    return shares;
  }

  /** A locality's share of its priority: the sum of its endpoints' shares. */
  private static Map<Locality, Fraction> localityShares(
      EndpointsUpdate update, int priority, LocalityGroup group, Map<InetSocketAddress, Fraction> endpointShares) {
    Map<Locality, Fraction> shares = new IdentityHashMap<>(); // a Locality's hashCode walks its endpoints
    for (Locality l : update.localities()) {
      if (l.priority() != priority) {
        continue;
      }
      Fraction sum = Fraction.ZERO;
      for (Endpoint e : l.endpoints()) {
        Fraction s = endpointShares.get(e.address());
        if (s != null) {
          sum = sum.plus(s);
        }
      }
      shares.put(l, sum);
    }
    return shares;
  }

  static String hostPort(InetSocketAddress address) {
    String ip = address.getAddress().getHostAddress();
    return (ip.indexOf(':') >= 0 ? "[" + ip + "]" : ip) + ":" + address.getPort();
  }
}
