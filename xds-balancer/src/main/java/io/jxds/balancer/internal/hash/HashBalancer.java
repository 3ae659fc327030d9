package io.jxds.balancer.internal.hash;

import static io.grpc.ConnectivityState.CONNECTING;
import static io.grpc.ConnectivityState.IDLE;
import static io.grpc.ConnectivityState.READY;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.LocalityId;
import io.jxds.balancer.internal.locality.LocalityConfig;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.tree.EndpointLocality;
import io.jxds.balancer.internal.tree.EndpointSubchannel;
import io.jxds.balancer.internal.tree.EndpointSubchannels;
import io.jxds.balancer.internal.tree.PublishedState;
import io.jxds.balancer.internal.tree.WrongConfig;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ring hash or maglev over all the endpoints of one priority (gRFC A42): one subchannel per
 * usable endpoint, one ring ({@link HashRing}) or table ({@link MaglevTable}) over them all.
 *
 * <ul>
 *   <li>An endpoint's weight is its locality's normalized weight times its own normalized weight
 *       in the locality (A42): locality weights 1 and 3 with two equal endpoints each give
 *       endpoint shares 12.5 %, 12.5 %, 37.5 % and 37.5 %. Its key is the {@code envoy.lb}
 *       {@code hash_key} when present (gRFC A76), else {@code ip:port}.
 *   <li>Connections are lazy (A42, {@link EndpointSubchannels.Connection#LAZY}): a subchannel
 *       connects when a pick lands on it ({@link HashPicker}), or when the balancer needs one to
 *       recover from TRANSIENT_FAILURE.
 *   <li>An endpoint keeps its subchannel when an update moves it to another locality of the
 *       priority; its {@link EndpointLocality} moves with it, so its RPCs count in the new one.
 *   <li>State (A42): READY if any endpoint is; else TRANSIENT_FAILURE if two or more failed; else
 *       CONNECTING if any is connecting, or one failed among several; else IDLE if any is idle;
 *       else TRANSIENT_FAILURE. A failed endpoint stays failed until READY (gRFC A62). While no
 *       endpoint is READY or connecting and one has failed, the first IDLE endpoint is asked to
 *       connect, so the priority recovers without traffic.
 *   <li>The ring or table is rebuilt only when the endpoints, their weights or keys, or the
 *       policy's settings change; the picker on every state change, once per burst of reports.
 * </ul>
 *
 * <p>Runs on the channel's SynchronizationContext; not thread-safe otherwise.
 */
public final class HashBalancer extends LoadBalancer {
  private static final Logger logger = LoggerFactory.getLogger(HashBalancer.class);

  private final SynchronizationContext syncContext;
  private final PublishedState published;
  private final String name;
  private final RandomGenerator pickRandom;
  private final EndpointSubchannels endpoints;

  private SlotTable table;
  private TableInputs tableInputs;
  private String hashHeader = "";
  private boolean shutdown;

  /**
   * @param helper the parent's helper; subchannels are created through it
   * @param name for logs and error texts, e.g. {@code cluster[child1]}
   * @param pickRandom draws random request hashes on RPC threads: must be thread-safe
   */
  public HashBalancer(Helper helper, String name, RandomGenerator pickRandom) {
    this.syncContext = helper.getSynchronizationContext();
    this.published = new PublishedState(helper);
    this.name = Objects.requireNonNull(name, "name");
    this.pickRandom = Objects.requireNonNull(pickRandom, "pickRandom");
    this.endpoints = new EndpointSubchannels(helper, name, EndpointSubchannels.Connection.LAZY, this::updateState);
  }

  /** Accepts a {@link LocalityGroup} whose policy is ring hash or maglev; addresses are ignored. */
  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Object config = resolvedAddresses.getLoadBalancingPolicyConfig();
    if (!(config instanceof LocalityGroup group) || !group.policy().hashesRequests()) {
      return WrongConfig.status(name, "a ring hash or maglev LocalityGroup", config);
    }
    acceptConfig(group);
    return Status.OK;
  }

  /** Applies new localities: subchannels are kept, created or shut down by address. */
  public void acceptConfig(LocalityGroup group) {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (shutdown) {
      return;
    }
    hashHeader = group.policy().hashHeader();
    List<Usable> usable = collect(group);
    List<EndpointSubchannels.Placement> placements = new ArrayList<>(usable.size());
    for (Usable u : usable) {
      placements.add(new EndpointSubchannels.Placement(u.endpoint(), u.locality()));
    }
    endpoints.update(placements); // addresses are distinct: index i of the table is member i
    TableInputs inputs = tableInputs(usable, group.policy().lbPolicy());
    if (!inputs.equals(tableInputs) && !inputs.keys.isEmpty()) {
      table = inputs.build();
      tableInputs = inputs;
      logger.debug("{}: built {} of {} slots over {} endpoints", name, inputs.policy, table.size(),
          inputs.keys.size());
    }
    updateState();
  }

  /**
   * For the control-plane toolkit, which plans a hash policy's shares with it: the usable endpoints
   * of {@code group} as this balancer serves them, each with how many of the 2^64 request hashes
   * the ring or table it builds sends to that endpoint first ({@link SlotTable#hashesPerEndpoint}).
   *
   * @param group a ring hash or maglev group
   * @return by address, in the table's order; empty when no endpoint is usable
   */
  public static Map<InetSocketAddress, BigInteger> hashesPerEndpoint(LocalityGroup group) {
    List<Usable> usable = collect(group);
    Map<InetSocketAddress, BigInteger> counts = new LinkedHashMap<>();
    if (usable.isEmpty()) {
      return counts;
    }
    BigInteger[] perEndpoint = tableInputs(usable, group.policy().lbPolicy()).build().hashesPerEndpoint(usable.size());
    for (int i = 0; i < usable.size(); i++) {
      counts.put(usable.get(i).endpoint().address(), perEndpoint[i]);
    }
    return counts;
  }

  /** What the table of these endpoints is built from: keys (A76 hash_key, else ip:port) and A42 weights. */
  private static TableInputs tableInputs(List<Usable> usable, LbPolicy policy) {
    List<String> keys = new ArrayList<>(usable.size());
    double[] weightArray = new double[usable.size()];
    for (int i = 0; i < usable.size(); i++) {
      Endpoint endpoint = usable.get(i).endpoint();
      keys.add(endpoint.hashKey().isEmpty() ? hostPort(endpoint.address()) : endpoint.hashKey());
      weightArray[i] = usable.get(i).weight();
    }
    return new TableInputs(keys, weightArray, policy);
  }

  /**
   * The usable endpoints of the group, the first of each address, each with its A42 weight
   * (locality weight over the localities' total, times endpoint weight over its locality's total)
   * and its locality.
   */
  private static List<Usable> collect(LocalityGroup group) {
    Set<LocalityId> seenLocalities = new HashSet<>();
    Set<InetSocketAddress> seenAddresses = new HashSet<>();
    double localityTotal = 0;
    List<LocalityConfig> localities = new ArrayList<>();
    for (LocalityConfig locality : group.localities()) {
      if (seenLocalities.add(locality.id()) && locality.endpoints().stream().anyMatch(e -> e.health().isUsable())) {
        localities.add(locality);
        localityTotal += locality.weight();
      }
    }
    List<Usable> usable = new ArrayList<>();
    for (LocalityConfig locality : localities) {
      double endpointTotal = 0;
      for (Endpoint e : locality.endpoints()) {
        if (e.health().isUsable()) {
          endpointTotal += e.weight();
        }
      }
      for (Endpoint e : locality.endpoints()) {
        if (e.health().isUsable() && seenAddresses.add(e.address())) {
          usable.add(new Usable(e, locality.weight() / localityTotal * (e.weight() / endpointTotal), locality.id()));
        }
      }
    }
    return usable;
  }

  /** A usable endpoint, its share of the ring and its locality. */
  private record Usable(Endpoint endpoint, double weight, LocalityId locality) {}

  @Override
  public void handleNameResolutionError(Status error) {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (endpoints.isEmpty()) {
      endpoints.recordError(error);
      updateState();
    }
  }

  /** gRFC A42: leaving IDLE connects one endpoint, unless one is already up or coming up. */
  @Override
  public void requestConnection() {
    syncContext.throwIfNotInThisSynchronizationContext();
    connectFirstIdleUnlessActive();
  }

  @Override
  public void shutdown() {
    syncContext.throwIfNotInThisSynchronizationContext();
    shutdown = true;
    endpoints.shutdown();
  }

  /** The one place that recomputes the aggregate state and picker (gRFC A42's rules). */
  private void updateState() {
    if (shutdown) {
      return;
    }
    Status lastError = endpoints.lastError();
    List<EndpointSubchannel> members = endpoints.members();
    if (members.isEmpty()) {
      published.publish(name, TRANSIENT_FAILURE, new FailingPicker(Status.UNAVAILABLE.withDescription(
          name + ": no usable endpoint (HEALTHY or UNKNOWN)"
              + (lastError == null ? "" : "; " + FailingPicker.describe(lastError)))));
      return;
    }
    int ready = 0;
    int connecting = 0;
    int idle = 0;
    int failed = 0;
    ConnectivityState[] states = new ConnectivityState[members.size()];
    PickResult[] results = new PickResult[members.size()];
    for (int i = 0; i < states.length; i++) {
      EndpointSubchannel endpoint = members.get(i);
      states[i] = endpoint.state();
      results[i] = endpoint.pickResult();
      switch (endpoint.state()) {
        case READY -> ready++;
        case CONNECTING -> connecting++;
        case IDLE -> idle++;
        default -> failed++;
      }
    }
    ConnectivityState aggregate;
    if (ready > 0) {
      aggregate = READY;
    } else if (failed >= 2) {
      aggregate = TRANSIENT_FAILURE;
    } else if (connecting > 0 || (failed == 1 && states.length > 1)) {
      aggregate = CONNECTING;
    } else if (idle > 0) {
      aggregate = IDLE;
    } else {
      aggregate = TRANSIENT_FAILURE;
    }
    if (failed > 0) {
      connectFirstIdleUnlessActive(); // recover without waiting for traffic (A42)
    }
    Status failure = Status.UNAVAILABLE.withDescription(name + ": all " + states.length
        + " endpoints unreachable; last error: " + (lastError == null ? "none" : FailingPicker.describe(lastError)));
    SubchannelPicker picker = new HashPicker(table, states, results, hashHeader, pickRandom,
        index -> syncContext.execute(() -> endpoints.connect(members.get(index))), failure);
    if (aggregate == TRANSIENT_FAILURE && ready == 0 && connecting == 0 && idle == 0) {
      picker = new FailingPicker(failure); // the parent reads the cause from a FailingPicker
    }
    published.publish(name, aggregate, picker);
  }

  private void connectFirstIdleUnlessActive() {
    List<EndpointSubchannel> members = endpoints.members();
    for (EndpointSubchannel endpoint : members) {
      if (endpoint.state() == READY || endpoint.state() == CONNECTING) {
        return;
      }
    }
    for (EndpointSubchannel endpoint : members) {
      if (endpoint.state() == IDLE) {
        endpoints.connect(endpoint);
        return;
      }
    }
  }

  private static String hostPort(InetSocketAddress address) {
    String ip = address.getAddress().getHostAddress();
    return (ip.indexOf(':') >= 0 ? "[" + ip + "]" : ip) + ":" + address.getPort();
  }

  @Override
  public String toString() {
    return "HashBalancer{" + name + ", endpoints=" + endpoints.members().size() + ", state=" + published.state() + "}";
  }

  /** What a ring or table is built from: rebuilt only when this changes. */
  private record TableInputs(List<String> keys, double[] weights, LbPolicy policy) {
    SlotTable build() {
      if (policy instanceof LbPolicy.Maglev maglev) {
        return MaglevTable.build(keys, weights, (int) maglev.tableSize());
      }
      LbPolicy.RingHash ring = (LbPolicy.RingHash) policy;
      return HashRing.build(keys, weights, ring.minRingSize(), ring.maxRingSize());
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof TableInputs other && keys.equals(other.keys)
          && java.util.Arrays.equals(weights, other.weights) && policy.equals(other.policy);
    }

    @Override
    public int hashCode() {
      return keys.hashCode();
    }
  }
}
