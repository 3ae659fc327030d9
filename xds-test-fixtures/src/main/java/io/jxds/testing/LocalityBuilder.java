package io.jxds.testing;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;

/**
 * Configures one {@code LocalityLbEndpoints} inside {@link EndpointsBuilder#locality}. Defaults:
 * priority 0, {@code load_balancing_weight} 1; call {@link #noWeight()} to leave the weight unset.
 */
public final class LocalityBuilder {
  private final LocalityLbEndpoints.Builder locality;

  LocalityBuilder(LocalityLbEndpoints.Builder locality) {
    this.locality = locality.setLoadBalancingWeight(UInt32Value.of(1));
  }

  /**
   * Sets {@code priority} (0 is the highest).
   *
   * @param priority 0 or more
   * @return this builder
   */
  public LocalityBuilder priority(int priority) {
    locality.setPriority(priority);
    return this;
  }

  /**
   * Sets {@code load_balancing_weight}, an unsigned 32-bit value (up to 2^32-1 without loss).
   *
   * @param weight in [0, 2^32-1]
   * @return this builder
   */
  public LocalityBuilder weight(long weight) {
    locality.setLoadBalancingWeight(UInt32Value.of((int) weight));
    return this;
  }

  /**
   * Leaves {@code load_balancing_weight} unset (such a locality is ignored by gRPC clients).
   *
   * @return this builder
   */
  public LocalityBuilder noWeight() {
    locality.clearLoadBalancingWeight();
    return this;
  }

  /**
   * Adds an endpoint at {@code ip:port} with this health and no {@code load_balancing_weight}.
   *
   * @param ip an IP literal
   * @param port the port
   * @param health the endpoint's {@code health_status}
   * @return this builder
   */
  public LocalityBuilder endpoint(String ip, int port, HealthStatus health) {
    return lbEndpoint(LbEndpoint.newBuilder().setHealthStatus(health).setEndpoint(endpointAt(ip, port)).build());
  }

  /**
   * Adds an endpoint at {@code ip:port} with this health and {@code load_balancing_weight}.
   *
   * @param ip an IP literal
   * @param port the port
   * @param health the endpoint's {@code health_status}
   * @param weight in [0, 2^32-1]
   * @return this builder
   */
  public LocalityBuilder endpoint(String ip, int port, HealthStatus health, long weight) {
    return lbEndpoint(
        LbEndpoint.newBuilder()
            .setHealthStatus(health)
            .setLoadBalancingWeight(UInt32Value.of((int) weight))
            .setEndpoint(endpointAt(ip, port))
            .build());
  }

  /**
   * Adds an endpoint at {@code ip:port} with this health, weight and {@code hostname}.
   *
   * @param ip an IP literal
   * @param port the port
   * @param health the endpoint's {@code health_status}
   * @param weight in [0, 2^32-1]
   * @param hostname the endpoint's {@code hostname}
   * @return this builder
   */
  public LocalityBuilder endpoint(String ip, int port, HealthStatus health, long weight, String hostname) {
    return lbEndpoint(
        LbEndpoint.newBuilder()
            .setHealthStatus(health)
            .setLoadBalancingWeight(UInt32Value.of((int) weight))
            .setEndpoint(endpointAt(ip, port).setHostname(hostname))
            .build());
  }

  /**
   * Adds a HEALTHY endpoint whose {@code endpoint.address} is as given (pipes, named ports...).
   *
   * @param address the endpoint's address
   * @return this builder
   */
  public LocalityBuilder endpointAddress(Address address) {
    return lbEndpoint(
        LbEndpoint.newBuilder()
            .setHealthStatus(HealthStatus.HEALTHY)
            .setEndpoint(Endpoint.newBuilder().setAddress(address))
            .build());
  }

  /**
   * Gives the endpoint added last one more address, {@code ip:port}, in its {@code
   * endpoint.additional_addresses} (gRFC A61: the same backend on another address, e.g. its IPv6
   * one, tried after the addresses before it).
   *
   * @param ip an IP literal
   * @param port the port
   * @return this builder
   * @throws IllegalStateException if no endpoint was added yet
   */
  public LocalityBuilder additionalAddress(String ip, int port) {
    return additionalAddress(endpointAt(ip, port).getAddress());
  }

  /**
   * Gives the endpoint added last one more {@code endpoint.additional_addresses} entry whose
   * {@code address} is as given (pipes, host names..., to test what a client rejects).
   *
   * @param address the entry's address
   * @return this builder
   * @throws IllegalStateException if no endpoint was added yet
   */
  public LocalityBuilder additionalAddress(Address address) {
    int last = locality.getLbEndpointsCount() - 1;
    if (last < 0) {
      throw new IllegalStateException("add an endpoint before its additional addresses");
    }
    locality.getLbEndpointsBuilder(last).getEndpointBuilder()
        .addAdditionalAddresses(Endpoint.AdditionalAddress.newBuilder().setAddress(address));
    return this;
  }

  /**
   * Adds an {@code LbEndpoint} as given.
   *
   * @param endpoint the endpoint
   * @return this builder
   */
  public LocalityBuilder lbEndpoint(LbEndpoint endpoint) {
    locality.addLbEndpoints(endpoint);
    return this;
  }

  /**
   * The underlying proto builder, for fields this class has no setter for.
   *
   * @return the builder this one writes to
   */
  public LocalityLbEndpoints.Builder proto() {
    return locality;
  }

  private static Endpoint.Builder endpointAt(String ip, int port) {
    return Endpoint.newBuilder()
        .setAddress(
            Address.newBuilder()
                .setSocketAddress(SocketAddress.newBuilder().setAddress(ip).setPortValue(port)));
  }
}
