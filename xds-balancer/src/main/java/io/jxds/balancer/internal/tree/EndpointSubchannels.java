package io.jxds.balancer.internal.tree;

import static io.grpc.ConnectivityState.CONNECTING;
import static io.grpc.ConnectivityState.IDLE;
import static io.grpc.ConnectivityState.SHUTDOWN;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;

import io.grpc.ConnectivityState;
import io.grpc.ConnectivityStateInfo;
import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer.CreateSubchannelArgs;
import io.grpc.LoadBalancer.Helper;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.LocalityId;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The subchannels of one balancer's endpoints, one per endpoint, kept across updates as grpc-java's
 * {@code MultiChildLoadBalancer} keeps its children: the endpoint leaf of the locality tree and the
 * hash balancer hold their endpoints here (ARCHITECTURE.md, "The load-balancing tree").
 *
 * <ul>
 *   <li>An endpoint with several addresses (EDS {@code additional_addresses}, gRFC A61) is one
 *       subchannel whose single address group lists them in order: gRPC connects to the first that
 *       answers, as its pick-first subchannel does. It is identified by its unordered set of
 *       addresses: reordered, it keeps its subchannel (given the new order); with an address added
 *       or removed it is a new endpoint (A61 accepts that churn).
 *   <li>{@link #update} makes the set exactly the endpoints given, in their order: an address
 *       (or set of addresses) already there keeps its subchannel, its state and its open-stream count, takes the
 *       endpoint as now listed (weight, hash key) and moves to its new locality ({@link
 *       EndpointLocality}, which its subchannel carries); a new address gets a subchannel; one no
 *       longer listed is shut down.
 *   <li>{@link Connection#EAGER}: a new subchannel is asked to connect at once, and again whenever
 *       it falls IDLE, so the balancer never reports IDLE (the locality tree).
 *       {@link Connection#LAZY}: a subchannel stays IDLE until {@link #connect} (ring hash and
 *       maglev, gRFC A42).
 *   <li>Each endpoint's state is its subchannel's, with sticky TRANSIENT_FAILURE (gRFC A62); the
 *       last connection error is kept for the balancer's failure text.
 *   <li>Subchannel reports and connection requests run the balancer's {@code onChange} once per
 *       burst ({@link CoalescedUpdate}).
 * </ul>
 *
 * <p>Used on the SynchronizationContext only; the subchannels' state listeners check it.
 */
public final class EndpointSubchannels {
  private static final Logger logger = LoggerFactory.getLogger(EndpointSubchannels.class);

  /** When a subchannel connects. */
  public enum Connection {
    /** At once, and again whenever it falls IDLE. */
    EAGER,
    /** Only when asked ({@link #connect}). */
    LAZY
  }

  /**
   * An endpoint the set should hold, and the locality its subchannel serves in.
   *
   * @param endpoint the endpoint
   * @param locality its locality, attached to its subchannel; null attaches none
   */
  public record Placement(Endpoint endpoint, LocalityId locality) {
    public Placement {
      Objects.requireNonNull(endpoint, "endpoint");
    }
  }

  private final Helper helper;
  private final SynchronizationContext syncContext;
  private final String name;
  private final Connection connection;
  private final CoalescedUpdate onChange;
  /** By {@link EndpointSubchannel#key}: an address, or an endpoint's set of addresses. */
  private Map<Object, EndpointSubchannel> byAddress = new HashMap<>();
  private List<EndpointSubchannel> members = List.of();
  private Status lastError;
  private boolean shutdown;

  /**
   * @param helper creates the subchannels
   * @param name the balancer's name, for logs
   * @param onChange recomputes the balancer's state, once per burst of reports
   */
  public EndpointSubchannels(Helper helper, String name, Connection connection, Runnable onChange) {
    this.helper = Objects.requireNonNull(helper, "helper");
    this.syncContext = helper.getSynchronizationContext();
    this.name = Objects.requireNonNull(name, "name");
    this.connection = Objects.requireNonNull(connection, "connection");
    this.onChange = new CoalescedUpdate(syncContext, onChange);
  }

  /**
   * Makes the set exactly {@code wanted}: subchannels are kept, created or shut down by address (or
   * set of addresses); a repeated one counts once (the first). The members are then in the order of {@code wanted}.
   */
  public void update(List<Placement> wanted) {
    if (shutdown) {
      return;
    }
    Map<Object, EndpointSubchannel> next = new HashMap<>();
    List<EndpointSubchannel> ordered = new ArrayList<>(wanted.size());
    List<EndpointSubchannel> created = new ArrayList<>();
    for (Placement placement : wanted) {
      Endpoint endpoint = placement.endpoint();
      Object key = EndpointSubchannel.key(endpoint);
      if (next.containsKey(key)) {
        continue;
      }
      EndpointSubchannel member = byAddress.remove(key);
      if (member == null) {
        EndpointLocality locality = placement.locality() == null ? null : new EndpointLocality(placement.locality());
        member = new EndpointSubchannel(endpoint, locality, connection == Connection.EAGER ? CONNECTING : IDLE);
        created.add(member);
      } else {
        member.endpoint(endpoint);
        if (member.locality() != null && placement.locality() != null) {
          member.locality().set(placement.locality()); // a kept subchannel serves its new locality
        }
        reorder(member, endpoint);
      }
      next.put(key, member);
      ordered.add(member);
    }
    for (EndpointSubchannel removed : byAddress.values()) {
      logger.debug("{}: endpoint {} removed", name, removed.address());
      removed.subchannel().shutdown();
    }
    byAddress = next;
    members = List.copyOf(ordered);
    for (EndpointSubchannel member : created) {
      start(member);
    }
  }

  /** The members, in the order of the last update. */
  public List<EndpointSubchannel> members() {
    return members;
  }

  /** Whether the set holds no endpoint. */
  public boolean isEmpty() {
    return members.isEmpty();
  }

  /** The last connection error (or name resolution error, see {@link #recordError}), or null. */
  public Status lastError() {
    return lastError;
  }

  /** Keeps {@code error} as the last error, for a balancer with no endpoint to say why. */
  public void recordError(Status error) {
    lastError = error;
  }

  /** Asks an IDLE member to connect; a member no longer in the set, or not IDLE, is left alone. */
  public void connect(EndpointSubchannel member) {
    if (shutdown || byAddress.get(member.key()) != member || member.state() != IDLE) {
      return;
    }
    member.state(CONNECTING);
    member.subchannel().requestConnection();
    onChange.schedule();
  }

  /** Asks every subchannel to connect, whatever its state. */
  public void requestConnections() {
    for (EndpointSubchannel member : members) {
      member.subchannel().requestConnection();
    }
  }

  /** Shuts every subchannel down; the set stays empty. */
  public void shutdown() {
    shutdown = true;
    for (EndpointSubchannel member : members) {
      member.subchannel().shutdown();
    }
    byAddress = new HashMap<>();
    members = List.of();
  }

  /**
   * gRFC A61: the same set of addresses in another order is the same endpoint, but its subchannel
   * must try them in the new order; a connection already made is kept ({@code updateAddresses}).
   */
  private static void reorder(EndpointSubchannel member, Endpoint endpoint) {
    if (endpoint.additionalAddresses().isEmpty()) {
      return; // one address: nothing to reorder
    }
    List<InetSocketAddress> now = endpoint.addresses();
    if (!now.equals(member.addresses())) {
      member.addresses(now);
      member.subchannel().updateAddresses(List.of(group(now)));
    }
  }

  /**
   * One address group for all of an endpoint's addresses (gRFC A61): the subchannel connects to
   * them in order, as grpc-java's pick-first subchannel does, and is one endpoint to its balancer.
   */
  private static EquivalentAddressGroup group(List<InetSocketAddress> addresses) {
    return addresses.size() == 1 ? new EquivalentAddressGroup(addresses.get(0)) : new EquivalentAddressGroup(
        List.<SocketAddress>copyOf(addresses));
  }

  private void start(EndpointSubchannel member) {
    CreateSubchannelArgs args = CreateSubchannelArgs.newBuilder()
        .setAddresses(group(member.addresses()))
        .build();
    member.subchannel(helper.createSubchannel(member.locality() == null ? args : member.locality().attachTo(args)));
    member.subchannel().start(info -> onSubchannelState(member, info));
    if (connection == Connection.EAGER) {
      member.subchannel().requestConnection();
    }
  }

  private void onSubchannelState(EndpointSubchannel member, ConnectivityStateInfo info) {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (shutdown || byAddress.get(member.key()) != member) {
      return; // a removed endpoint's late news
    }
    ConnectivityState reported = info.getState();
    if (reported == SHUTDOWN) {
      return;
    }
    if (reported == IDLE && connection == Connection.EAGER) {
      // A READY connection went away (or the subchannel never connected): reconnect at once.
      member.subchannel().requestConnection();
      reported = CONNECTING;
    }
    // LAZY: IDLE stays IDLE, the endpoint reconnects when a pick needs it (A42).
    member.state(StickyFailure.next(member.state(), reported));
    if (reported == TRANSIENT_FAILURE) {
      lastError = info.getStatus();
    }
    onChange.schedule();
  }
}
