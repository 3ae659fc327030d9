package io.jxds.api.model;

import java.util.Objects;

/**
 * The DNS name of a LOGICAL_DNS cluster (gRFC A37): its single {@code load_assignment} endpoint's
 * {@code socket_address}, resolved by gRPC's DNS resolver into one endpoint.
 *
 * @param host the {@code address}: a DNS name or an IP literal, not empty
 * @param port the {@code port_value}, in [1, 65535]
 */
public record LogicalDns(String host, int port) {
  /**
   * Checks the components.
   *
   * @param host a DNS name or an IP literal, not empty
   * @param port in [1, 65535]
   * @throws IllegalArgumentException if the host is empty or the port out of range
   */
  public LogicalDns {
    Objects.requireNonNull(host, "host");
    if (host.isEmpty()) {
      throw new IllegalArgumentException("host must not be empty");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port must be in [1, 65535], got " + port);
    }
  }

  /**
   * The name in {@code host:port} form, an IPv6 literal in brackets.
   *
   * @return what gRPC's DNS resolver resolves ({@code dns:///} followed by it)
   */
  public String target() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }

  @Override
  public String toString() {
    return target();
  }
}
