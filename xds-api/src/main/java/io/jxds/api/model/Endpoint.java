package io.jxds.api.model;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
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
 * @param additionalAddresses the endpoint's {@code endpoint.additional_addresses} (gRFC A61: the
 *     same backend reached another way, e.g. its IPv6 address), IP literals in the order listed;
 *     empty for most endpoints. With {@link #address} they are {@link #addresses}.
 */
public record Endpoint(
    InetSocketAddress address,
    HealthStatus health,
    long weight,
    String hostname,
    String hashKey,
    List<InetSocketAddress> additionalAddresses) {
  /**
   * Checks the fields.
   *
   * @param address an IP literal and a port
   * @param health the reported health
   * @param weight in [1, 2^32-1]
   * @param hostname empty when unset
   * @param hashKey empty when unset
   * @param additionalAddresses IP literals and ports, empty when none
   * @throws IllegalArgumentException if an address is unresolved or the weight out of range
   */
  public Endpoint {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(health, "health");
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(hashKey, "hashKey");
    requireIpLiteral(address);
    additionalAddresses = List.copyOf(additionalAddresses);
    for (InetSocketAddress a : additionalAddresses) {
      requireIpLiteral(a);
    }
    Weights.requireWeight(weight, "endpoint weight");
  }

  /**
   * An endpoint with one address.
   *
   * @param address an IP literal and a port
   * @param health the reported health
   * @param weight in [1, 2^32-1]
   * @param hostname empty when unset
   * @param hashKey empty when unset
   * @throws IllegalArgumentException if the address is unresolved or the weight out of range
   */
  public Endpoint(InetSocketAddress address, HealthStatus health, long weight, String hostname, String hashKey) {
    this(address, health, weight, hostname, hashKey, List.of());
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

  /**
   * Every address of the endpoint, in order: {@link #address} first, then {@link
   * #additionalAddresses} (gRFC A61: one backend, connected to through the first that works).
   *
   * @return one address or more
   */
  public List<InetSocketAddress> addresses() {
    if (additionalAddresses.isEmpty()) {
      return List.of(address);
    }
    List<InetSocketAddress> all = new ArrayList<>(1 + additionalAddresses.size());
    all.add(address);
    all.addAll(additionalAddresses);
    return List.copyOf(all);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder(hostPort(address));
    for (InetSocketAddress a : additionalAddresses) {
      s.append(',').append(hostPort(a));
    }
    return s + " " + health + " w=" + weight + (hostname.isEmpty() ? "" : " host=" + hostname)
        + (hashKey.isEmpty() ? "" : " hash_key=" + hashKey);
  }

  private static void requireIpLiteral(InetSocketAddress address) {
    Objects.requireNonNull(address, "address");
    if (address.isUnresolved()) {
      throw new IllegalArgumentException("endpoint address must be an IP literal, got " + address);
    }
  }

  private static String hostPort(InetSocketAddress address) {
    String ip = address.getAddress().getHostAddress();
    return ip.indexOf(':') >= 0 ? "[" + ip + "]:" + address.getPort() : ip + ":" + address.getPort();
  }
}
