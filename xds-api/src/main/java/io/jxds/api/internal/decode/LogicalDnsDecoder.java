package io.jxds.api.internal.decode;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.LogicalDns;

/**
 * The DNS name of a LOGICAL_DNS cluster (gRFC A37), as grpc-java reads it: {@code load_assignment}
 * holds exactly one locality with exactly one {@code lb_endpoint}, whose {@code socket_address} has
 * a non-empty {@code address}, a {@code port_value} in [1, 65535] (not {@code named_port}) and no
 * {@code resolver_name}. Anything else is a NACK naming the cluster, the field and the value.
 */
final class LogicalDnsDecoder {
  private static final String LOCALITIES = "load_assignment.endpoints";
  private static final String ENDPOINTS = LOCALITIES + "[0].lb_endpoints";
  private static final String SOCKET_ADDRESS = ENDPOINTS + "[0].endpoint.address.socket_address";

  private LogicalDnsDecoder() {}

  static LogicalDns decode(Cluster cluster, String name) throws XdsResourceException {
    ClusterLoadAssignment assignment = cluster.getLoadAssignment();
    if (assignment.getEndpointsCount() != 1) {
      throw Nack.of(ClusterDecoder.KIND, name, LOCALITIES + " must hold exactly one locality for LOGICAL_DNS",
          assignment.getEndpointsCount() + " localities");
    }
    LocalityLbEndpoints locality = assignment.getEndpoints(0);
    if (locality.getLbEndpointsCount() != 1) {
      throw Nack.of(ClusterDecoder.KIND, name, ENDPOINTS + " must hold exactly one endpoint for LOGICAL_DNS",
          locality.getLbEndpointsCount() + " endpoints");
    }
    LbEndpoint endpoint = locality.getLbEndpoints(0);
    Address address = endpoint.getEndpoint().getAddress();
    if (!address.hasSocketAddress()) {
      throw Nack.of(ClusterDecoder.KIND, name, SOCKET_ADDRESS + " must be set", address.getAddressCase().name());
    }
    SocketAddress socket = address.getSocketAddress();
    if (!socket.getResolverName().isEmpty()) {
      throw Nack.of(ClusterDecoder.KIND, name, SOCKET_ADDRESS + ".resolver_name must be empty",
          Nack.quote(socket.getResolverName()));
    }
    if (socket.getAddress().isEmpty()) {
      throw Nack.of(ClusterDecoder.KIND, name, SOCKET_ADDRESS + ".address must not be empty", "\"\"");
    }
    if (socket.getPortSpecifierCase() != SocketAddress.PortSpecifierCase.PORT_VALUE) {
      throw Nack.of(ClusterDecoder.KIND, name, SOCKET_ADDRESS + ".port_value must be set",
          socket.getPortSpecifierCase() == SocketAddress.PortSpecifierCase.NAMED_PORT
              ? "named_port " + Nack.quote(socket.getNamedPort())
              : "unset");
    }
    int port = socket.getPortValue();
    if (port < 1 || port > 65535) {
      throw Nack.of(ClusterDecoder.KIND, name, SOCKET_ADDRESS + ".port_value must be in [1, 65535]",
          Integer.toUnsignedString(port));
    }
    return new LogicalDns(socket.getAddress(), port);
  }
}
