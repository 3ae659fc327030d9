package io.jxds.api.model;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * One backend of a locality: envoy's {@code LbEndpoint}.
 *
 * @param address an IP literal and a port, never resolved through DNS (gRFC A27)
 * @param health the health the control plane reported
 * @param weight the endpoint's {@code load_balancing_weight}, an unsigned 32-bit value in
 *     [1, 2^32-1] (an unset or zero weight on the wire means 1)
 * @param hostname the endpoint's {@code hostname}, empty when unset
 */
public record Endpoint(InetSocketAddress address, HealthStatus health, long weight, String hostname) {
  /**
   * Creates an endpoint, checking its components.
   *
   * @param address a resolved address (an IP literal)
   * @param health the reported health
   * @param weight in [1, 2^32-1]
   * @param hostname the hostname, empty when unset
   * @throws IllegalArgumentException if the address is unresolved or the weight out of range
   */
  public Endpoint {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(health, "health");
    Objects.requireNonNull(hostname, "hostname");
    if (address.isUnresolved()) {
      throw new IllegalArgumentException("endpoint address must be an IP literal, got " + address);
    }
    Weights.requireWeight(weight, "endpoint weight");
  }

  /**
   * A healthy endpoint of weight 1 and no hostname.
   *
   * @param address a resolved address (an IP literal)
   * @return the endpoint
   */
  public static Endpoint of(InetSocketAddress address) {
    return new Endpoint(address, HealthStatus.HEALTHY, 1, "");
  }

  @Override
  public String toString() {
    String ip = address.getAddress().getHostAddress();
    String hostPort = ip.indexOf(':') >= 0 ? "[" + ip + "]:" + address.getPort() : ip + ":" + address.getPort();
    return hostPort + " " + health + " w=" + weight + (hostname.isEmpty() ? "" : " host=" + hostname);
  }
}
