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
 * @param hashKey the endpoint's key on a hash ring: its {@code metadata.filter_metadata["envoy.lb"]}
 *     string {@code hash_key} (gRFC A76), empty when unset (the ring then uses the address)
 */
public record Endpoint(InetSocketAddress address, HealthStatus health, long weight, String hostname, String hashKey) {
  /**
   * Checks the fields.
   *
   * @param address an IP literal and a port
   * @param health the reported health
   * @param weight in [1, 2^32-1]
   * @param hostname empty when unset
   * @param hashKey empty when unset
   * @throws IllegalArgumentException if the address is unresolved or the weight out of range
   */
  public Endpoint {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(health, "health");
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(hashKey, "hashKey");
    if (address.isUnresolved()) {
      throw new IllegalArgumentException("endpoint address must be an IP literal, got " + address);
    }
    Weights.requireWeight(weight, "endpoint weight");
  }

  /**
   * An endpoint without a hash key.
   *
   * @param address an IP literal and a port
   * @param health the reported health
   * @param weight in [1, 2^32-1]
   * @param hostname empty when unset
   * @throws IllegalArgumentException if the address is unresolved or the weight out of range
   */
  public Endpoint(InetSocketAddress address, HealthStatus health, long weight, String hostname) {
    this(address, health, weight, hostname, "");
  }

  /**
   * A healthy endpoint of weight 1, no hostname and no hash key.
   *
   * @param address an IP literal and a port
   * @return the endpoint
   */
  public static Endpoint of(InetSocketAddress address) {
    return new Endpoint(address, HealthStatus.HEALTHY, 1, "");
  }

  @Override
  public String toString() {
    String ip = address.getAddress().getHostAddress();
    String hostPort = ip.indexOf(':') >= 0 ? "[" + ip + "]:" + address.getPort() : ip + ":" + address.getPort();
    return hostPort + " " + health + " w=" + weight + (hostname.isEmpty() ? "" : " host=" + hostname)
        + (hashKey.isEmpty() ? "" : " hash_key=" + hashKey);
  }
}
