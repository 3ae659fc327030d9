package io.jxds.balancer.internal.hash;

import static io.grpc.ConnectivityState.IDLE;

import io.grpc.CallOptions;
import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Metadata;
import io.grpc.Status;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.balancer.internal.manager.ChosenCluster;
import java.util.random.RandomGenerator;

/**
 * Ring hash and maglev picks over a snapshot of the endpoints' states: gRFC A42's picker as gRFC
 * A61 rewrote it, with gRFC A76's rule for random hashes.
 *
 * <p>The request's hash comes from the first source that has one: the call's route's hash policies
 * ({@link ChosenCluster#requestHash()}, gRFC A42), the call option {@link
 * XdsClusterPolicy#REQUEST_HASH} (as given), then the header named by {@code hashHeader} (the
 * xxHash64 of its values joined with {@code ","}), else a random hash per RPC.
 *
 * <ul>
 *   <li>A given or header hash is sticky (A61): walking the slots from the hash's first one,
 *       failed (TRANSIENT_FAILURE) endpoints are skipped and the first other endpoint decides:
 *       READY, the pick goes there; IDLE, it is asked to connect (on the SynchronizationContext)
 *       and the pick is queued; CONNECTING, the pick is queued. A failed endpoint retries on its
 *       own (its subchannel reconnects after backoff, gRFC A62), so nothing asks it to. Every
 *       endpoint failed: the pick fails.
 *   <li>A random hash is not sticky (A76): the walk takes the first READY endpoint; unless some
 *       endpoint is already CONNECTING, it asks the first IDLE one it meets to connect, so one
 *       request starts at most one connection and random traffic spreads over every endpoint in
 *       time. No READY endpoint: the pick is queued if a connection is under way or was asked for,
 *       else it fails.
 * </ul>
 *
 * <p>Immutable. A pick allocates nothing, except a header's bytes to hash them and, for a pick
 * that asks an endpoint to connect, the task handed to the SynchronizationContext (the balancer
 * ignores requests for an endpoint that is no longer IDLE).
 */
final class HashPicker extends SubchannelPicker {
  /** Asks one endpoint to connect, from an RPC thread (it hops onto the SynchronizationContext). */
  interface Connector {
    void connect(int endpoint);
  }

  private final SlotTable table;
  private final ConnectivityState[] states;
  private final PickResult[] results;
  /** Each endpoint's pick if it is READY, else null: a READY first slot costs one read. */
  private final PickResult[] readyResults;
  private final Metadata.Key<String> header;
  private final RandomGenerator random;
  private final Connector connector;
  private final PickResult failure;
  /** Whether any endpoint is READY: without one, a random hash's walk to a READY one is skipped. */
  private final boolean anyReady;
  /** Whether any endpoint is CONNECTING: then a random hash asks none to connect (A76). */
  private final boolean anyConnecting;
  /** Whether any endpoint is IDLE. */
  private final boolean anyIdle;

  /**
   * @param states each endpoint's state, by index (READY, IDLE, CONNECTING or TRANSIENT_FAILURE)
   * @param results each endpoint's pick
   * @param headerName the lower-case hash header, or empty
   * @param random draws random hashes on RPC threads: must be thread-safe
   */
  HashPicker(
      SlotTable table,
      ConnectivityState[] states,
      PickResult[] results,
      String headerName,
      RandomGenerator random,
      Connector connector,
      Status failure) {
    this.table = table;
    this.states = states;
    this.results = results;
    this.header = headerName.isEmpty() ? null : Metadata.Key.of(headerName, Metadata.ASCII_STRING_MARSHALLER);
    this.random = random;
    this.connector = connector;
    this.failure = PickResult.withError(failure);
    this.readyResults = new PickResult[states.length];
    boolean ready = false;
    boolean connecting = false;
    boolean idle = false;
    for (int i = 0; i < states.length; i++) {
      switch (states[i]) {
        case READY -> {
          readyResults[i] = results[i];
          ready = true;
        }
        case CONNECTING -> connecting = true;
        case IDLE -> idle = true;
        default -> { }
      }
    }
    this.anyReady = ready;
    this.anyConnecting = connecting;
    this.anyIdle = idle;
  }

  @Override
  public PickResult pickSubchannel(PickSubchannelArgs args) {
    CallOptions options = args.getCallOptions();
    ChosenCluster chosen = options.getOption(ChosenCluster.KEY);
    if (chosen != null && chosen.hasRequestHash()) {
      return pickSticky(table.firstSlot(chosen.requestHash()));
    }
    Long given = options.getOption(XdsClusterPolicy.REQUEST_HASH);
    if (given != null) {
      return pickSticky(table.firstSlot(given));
    }
    if (header != null) {
      Iterable<String> values = args.getHeaders().getAll(header);
      if (values != null) {
        return pickSticky(table.firstSlot(XxHash64.hash(String.join(",", values))));
      }
    }
    return pickRandom(table.firstSlot(random.nextLong()));
  }

  /** gRFC A61's walk from {@code first}: the first endpoint that has not failed decides. */
  private PickResult pickSticky(int first) {
    PickResult ready = readyResults[table.endpointAt(first)];
    if (ready != null) {
      return ready;
    }
    if (!anyReady && !anyConnecting && !anyIdle) {
      return failure; // else a walk of every slot (millions, for a large ring) would find none
    }
    int size = table.size();
    for (int i = 0, slot = first; i < size; i++, slot = next(slot)) {
      int endpoint = table.endpointAt(slot);
      switch (states[endpoint]) {
        case READY:
          return results[endpoint];
        case IDLE:
          connector.connect(endpoint);
          return PickResult.withNoResult();
        case CONNECTING:
          return PickResult.withNoResult();
        default:
          break; // failed: the next endpoint on the ring
      }
    }
    return failure;
  }

  /** gRFC A76's walk from {@code first}: the first READY endpoint, connecting at most one IDLE one. */
  private PickResult pickRandom(int first) {
    PickResult ready = readyResults[table.endpointAt(first)];
    if (ready != null) {
      return ready;
    }
    boolean connectionUnderWay = anyConnecting;
    if (!anyReady && (connectionUnderWay || !anyIdle)) {
      return connectionUnderWay ? PickResult.withNoResult() : failure; // nothing to find on the ring
    }
    int size = table.size();
    for (int i = 0, slot = first; i < size; i++, slot = next(slot)) {
      int endpoint = table.endpointAt(slot);
      ready = readyResults[endpoint];
      if (ready != null) {
        return ready;
      }
      if (!connectionUnderWay && states[endpoint] == IDLE) {
        connector.connect(endpoint);
        connectionUnderWay = true;
        if (!anyReady) {
          break;
        }
      }
    }
    return connectionUnderWay ? PickResult.withNoResult() : failure;
  }

  private int next(int slot) {
    int following = slot + 1;
    return following == table.size() ? 0 : following;
  }

  @Override
  public String toString() {
    return "HashPicker{endpoints=" + states.length + ", slots=" + table.size() + "}";
  }
}
