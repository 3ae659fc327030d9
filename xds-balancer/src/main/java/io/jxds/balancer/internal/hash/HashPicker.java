package io.jxds.balancer.internal.hash;

import static io.grpc.ConnectivityState.CONNECTING;
import static io.grpc.ConnectivityState.IDLE;
import static io.grpc.ConnectivityState.READY;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Metadata;
import io.grpc.Status;
import io.jxds.balancer.XdsClusterPolicy;
import java.util.random.RandomGenerator;

/**
 * Ring hash and maglev picks (gRFC A42's picker, with A76's random-hash rule), over a snapshot of
 * the endpoints' states.
 *
 * <p>The request's hash comes from the first source that has one: the call option {@link
 * XdsClusterPolicy#REQUEST_HASH} (as given), then the header named by {@code hashHeader} (the
 * xxHash64 of its values joined with {@code ","}), else a random hash per RPC.
 *
 * <p>From the hash's first slot:
 *
 * <ul>
 *   <li>READY: that endpoint. IDLE: ask it to connect (on the SynchronizationContext) and queue.
 *       CONNECTING: queue. (A request keeps its endpoint while that endpoint is coming up.)
 *   <li>TRANSIENT_FAILURE: the same test on the next slot holding another endpoint; if that one
 *       failed too, the first READY endpoint further on, asking the first IDLE one met to
 *       connect; none READY: queue if any endpoint is connecting or was asked to, else fail.
 *   <li>A random hash is not sticky (A76): the first READY endpoint from its slot on is taken, and
 *       only when none is READY does the rule above apply.
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
    for (int i = 0; i < states.length; i++) {
      if (states[i] == READY) {
        readyResults[i] = results[i];
        ready = true;
      }
    }
    this.anyReady = ready;
  }

  @Override
  public PickResult pickSubchannel(PickSubchannelArgs args) {
    Long given = args.getCallOptions().getOption(XdsClusterPolicy.REQUEST_HASH);
    if (given != null) {
      return pick(table.firstSlot(given));
    }
    if (header != null) {
      Iterable<String> values = args.getHeaders().getAll(header);
      if (values != null) {
        return pick(table.firstSlot(XxHash64.hash(String.join(",", values))));
      }
    }
    int first = table.firstSlot(random.nextLong());
    if (anyReady) { // else a walk of every slot (millions, for a large ring) would find none
      int size = table.size();
      for (int i = 0, slot = first; i < size; i++, slot = next(slot)) {
        PickResult ready = readyResults[table.endpointAt(slot)];
        if (ready != null) {
          return ready;
        }
      }
    }
    return pick(first);
  }

  /** gRFC A42's walk from {@code first}. */
  private PickResult pick(int first) {
    int endpoint = table.endpointAt(first);
    PickResult result = readyResults[endpoint];
    if (result != null) {
      return result;
    }
    result = tryEndpoint(endpoint);
    if (result != null) {
      return result;
    }
    int size = table.size();
    int slot = next(first);
    int second = -1;
    for (int i = 1; i < size; i++, slot = next(slot)) {
      if (table.endpointAt(slot) != endpoint) {
        second = table.endpointAt(slot);
        break;
      }
    }
    if (second < 0) {
      return failure; // one endpoint, and it failed
    }
    result = tryEndpoint(second);
    if (result != null) {
      return result;
    }
    boolean pending = false;
    for (int i = 1; i < size; i++, slot = next(slot)) {
      int e = table.endpointAt(slot);
      ConnectivityState state = states[e];
      if (state == READY) {
        return results[e];
      }
      if (state == IDLE && !pending) {
        connector.connect(e);
        pending = true;
      } else if (state == CONNECTING) {
        pending = true;
      }
    }
    return pending ? PickResult.withNoResult() : failure;
  }

  /** The pick for an endpoint that can serve or is coming up; null for one in TRANSIENT_FAILURE. */
  private PickResult tryEndpoint(int endpoint) {
    switch (states[endpoint]) {
      case READY:
        return results[endpoint];
      case IDLE:
        connector.connect(endpoint);
        return PickResult.withNoResult();
      case CONNECTING:
        return PickResult.withNoResult();
      default:
        return null;
    }
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
