package io.jxds.api.internal.decode;

import static io.jxds.testing.XdsResources.cluster;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.Pipe;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.LogicalDns;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** LOGICAL_DNS clusters (gRFC A37): what decodes, and each NACK naming the resource and the field. */
class LogicalDnsDecoderTest {
  private static final String SOCKET = "load_assignment.endpoints[0].lb_endpoints[0].endpoint.address.socket_address";

  @Test
  void logicalDnsClusterDecodesToItsHostAndPort() throws Exception {
    ClusterUpdate update = ClusterDecoder.decode(cluster("legacy").logicalDns("backend.example.com", 8443).build());

    assertThat(update.logicalDns()).contains(new LogicalDns("backend.example.com", 8443));
    assertThat(update.logicalDns().orElseThrow().target()).isEqualTo("backend.example.com:8443");
    assertThat(update.edsServiceName()).isEqualTo("legacy");
    assertThat(update.lbPolicy()).isEqualTo(LbPolicy.ROUND_ROBIN);
  }

  @Test
  void circuitBreakingLoadReportingAndTlsApplyAsForEds() throws Exception {
    ClusterUpdate update = ClusterDecoder.decode(
        cluster("legacy").logicalDns("10.0.0.1", 443).maxRequests(7).lrsSelf().upstreamTls("legacy.example").build());

    assertThat(update.maxConcurrentRequests()).isEqualTo(7);
    assertThat(update.lrsEnabled()).isTrue();
    assertThat(update.upstreamTls()).isPresent();
  }

  @Test
  void ipv6LiteralTargetIsBracketed() throws Exception {
    ClusterUpdate update = ClusterDecoder.decode(cluster("v6").logicalDns("::1", 50051).build());

    assertThat(update.logicalDns().orElseThrow().target()).isEqualTo("[::1]:50051");
  }

  @Test
  void edsClusterHasNoDnsName() throws Exception {
    assertThat(ClusterDecoder.decode(cluster("payments").build()).logicalDns()).isEqualTo(Optional.empty());
  }

  @Test
  void noLocalityIsRejected() {
    Cluster c = cluster("legacy").logicalDns("a.example", 80).proto().clearLoadAssignment().build();
    assertNack(c, "load_assignment.endpoints must hold exactly one locality for LOGICAL_DNS, got 0 localities");
  }

  @Test
  void twoLocalitiesAreRejected() {
    Cluster.Builder c = cluster("legacy").logicalDns("a.example", 80).proto();
    c.getLoadAssignmentBuilder().addEndpoints(LocalityLbEndpoints.newBuilder().addLbEndpoints(endpoint("b", 80)));
    assertNack(c.build(), "load_assignment.endpoints must hold exactly one locality for LOGICAL_DNS, got 2 localities");
  }

  @Test
  void zeroEndpointsAreRejected() {
    assertNack(cluster("legacy").logicalDns().build(),
        "load_assignment.endpoints[0].lb_endpoints must hold exactly one endpoint for LOGICAL_DNS, got 0 endpoints");
  }

  @Test
  void twoEndpointsAreRejected() {
    assertNack(cluster("legacy").logicalDns(endpoint("a.example", 80), endpoint("b.example", 80)).build(),
        "load_assignment.endpoints[0].lb_endpoints must hold exactly one endpoint for LOGICAL_DNS, got 2 endpoints");
  }

  @Test
  void pipeAddressIsRejected() {
    LbEndpoint pipe = LbEndpoint.newBuilder().setEndpoint(Endpoint.newBuilder().setAddress(
        Address.newBuilder().setPipe(Pipe.newBuilder().setPath("/tmp/sock")))).build();
    assertNack(cluster("legacy").logicalDns(pipe).build(), SOCKET + " must be set, got PIPE");
  }

  @Test
  void namedPortIsRejected() {
    LbEndpoint named = LbEndpoint.newBuilder().setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder()
        .setSocketAddress(SocketAddress.newBuilder().setAddress("a.example").setNamedPort("grpc")))).build();
    assertNack(cluster("legacy").logicalDns(named).build(),
        SOCKET + ".port_value must be set, got named_port \"grpc\"");
  }

  @Test
  void portZeroAndEmptyHostAreRejected() {
    assertNack(cluster("legacy").logicalDns("a.example", 0).build(),
        SOCKET + ".port_value must be in [1, 65535], got 0");
    assertNack(cluster("legacy").logicalDns("a.example", 70000).build(),
        SOCKET + ".port_value must be in [1, 65535], got 70000");
    assertNack(cluster("legacy").logicalDns("", 80).build(), SOCKET + ".address must not be empty, got \"\"");
  }

  @Test
  void resolverNameIsRejected() {
    LbEndpoint custom = LbEndpoint.newBuilder().setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder()
        .setSocketAddress(SocketAddress.newBuilder().setAddress("a.example").setPortValue(80)
            .setResolverName("envoy.network.dns_resolver.cares")))).build();
    assertNack(cluster("legacy").logicalDns(custom).build(),
        SOCKET + ".resolver_name must be empty, got \"envoy.network.dns_resolver.cares\"");
  }

  private static LbEndpoint endpoint(String host, int port) {
    return LbEndpoint.newBuilder().setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder()
        .setSocketAddress(SocketAddress.newBuilder().setAddress(host).setPortValue(port)))).build();
  }

  private static void assertNack(Cluster cluster, String expected) {
    assertThatThrownBy(() -> ClusterDecoder.decode(cluster))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("cluster \"" + cluster.getName() + "\": " + expected)
        .extracting(e -> ((XdsResourceException) e).resourceName())
        .isEqualTo(cluster.getName());
  }
}
