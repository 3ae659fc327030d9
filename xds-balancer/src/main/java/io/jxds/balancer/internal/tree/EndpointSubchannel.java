package io.jxds.balancer.internal.tree;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.Subchannel;
import io.jxds.api.model.Endpoint;
import io.jxds.balancer.internal.picker.OpenStreams;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;

/**
 * One endpoint of an {@link EndpointSubchannels} set: its subchannel for as long as its address
 * (or set of addresses, gRFC A61) stays in the set, the endpoint as last listed (weight, hash
 * key), and the state the balancer goes by. Read and written on the SynchronizationContext only.
 */
public final class EndpointSubchannel {
  private final InetSocketAddress address;
  /** The set's key: the address, or for several (gRFC A61) their unordered set. */
  private final Object key;
  /** The addresses in the order the subchannel has them. */
  private List<InetSocketAddress> addresses;
  /** Attached to the subchannel (null: the set tags none); moved when the endpoint changes locality. */
  private final EndpointLocality locality;
  private Endpoint endpoint;
  private Subchannel subchannel;
  private PickResult pickResult;
  private ConnectivityState state;
  private OpenStreams openStreams;

  EndpointSubchannel(Endpoint endpoint, EndpointLocality locality, ConnectivityState state) {
    this.address = endpoint.address();
    this.key = key(endpoint);
    this.addresses = endpoint.addresses();
    this.endpoint = endpoint;
    this.locality = locality;
    this.state = state;
  }

  /**
   * The endpoint's first address when it joined the set: the one a hash ring places it by (gRFC
   * A61), and the one logs name.
   */
  public InetSocketAddress address() {
    return address;
  }

  /**
   * What identifies an endpoint in a set (gRFC A61): its address, or, for an endpoint with several
   * (EDS {@code additional_addresses}), the unordered set of them, so that a reordering is the same
   * endpoint and an address added or removed is another. No allocation for one address.
   */
  static Object key(Endpoint endpoint) {
    return endpoint.additionalAddresses().isEmpty() ? endpoint.address() : Set.copyOf(endpoint.addresses());
  }

  Object key() {
    return key;
  }

  /** The addresses in the order the subchannel tries them. */
  List<InetSocketAddress> addresses() {
    return addresses;
  }

  void addresses(List<InetSocketAddress> addresses) {
    this.addresses = addresses;
  }

  /** The endpoint as the last update listed it. */
  public Endpoint endpoint() {
    return endpoint;
  }

  /** The endpoint's subchannel. */
  public Subchannel subchannel() {
    return subchannel;
  }

  /** A pick of {@link #subchannel()}, made once. */
  public PickResult pickResult() {
    return pickResult;
  }

  /**
   * The state the balancer goes by: the subchannel's last report, except that a failed endpoint
   * stays TRANSIENT_FAILURE until READY (gRFC A62, {@link StickyFailure}) and, when connections are
   * eager, IDLE reads as CONNECTING (the subchannel was asked to reconnect).
   */
  public ConnectivityState state() {
    return state;
  }

  /** The endpoint's open streams, for least request: they outlive pickers, as the endpoint does. */
  public OpenStreams openStreams() {
    if (openStreams == null) {
      openStreams = new OpenStreams();
    }
    return openStreams;
  }

  EndpointLocality locality() {
    return locality;
  }

  void endpoint(Endpoint endpoint) {
    this.endpoint = endpoint;
  }

  void subchannel(Subchannel subchannel) {
    this.subchannel = subchannel;
    this.pickResult = PickResult.withSubchannel(subchannel);
  }

  void state(ConnectivityState state) {
    this.state = state;
  }

  @Override
  public String toString() {
    return "EndpointSubchannel{" + address + ", " + state + "}";
  }
}
