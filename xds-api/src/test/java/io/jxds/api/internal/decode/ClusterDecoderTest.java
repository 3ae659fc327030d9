package io.jxds.api.internal.decode;

import static io.jxds.testing.XdsResources.cluster;
import static io.jxds.testing.XdsResources.roundRobin;
import static io.jxds.testing.XdsResources.wrrLocality;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.StringValue;
import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.ApiConfigSource;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.RoutingPriority;
import io.envoyproxy.envoy.config.core.v3.TransportSocket;
import io.envoyproxy.envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.CertificateProviderInstance;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.UpstreamTlsSettings;
import io.jxds.testing.XdsResources;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One test per Cluster validation rule (gRFC A27), valid and invalid. */
class ClusterDecoderTest {
  @Test
  void minimalEdsClusterDecodesToDefaults() throws Exception {
    assertThat(ClusterDecoder.decode(cluster("payments").build()))
        .isEqualTo(
            new ClusterUpdate("payments", "payments", false, 1024, LbPolicy.ROUND_ROBIN, Optional.empty()));
  }

  @Test
  void emptyNameIsRejected() {
    assertThatThrownBy(() -> ClusterDecoder.decode(cluster("").build()))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("cluster \"\": name must not be empty, got \"\"")
        .extracting(e -> ((XdsResourceException) e).resourceName())
        .isNull();
  }

  @Test
  void nonEdsTypeIsRejectedNamingTheType() {
    assertNack(cluster("payments").type(Cluster.DiscoveryType.STRICT_DNS).build(), "type must be EDS, got STRICT_DNS");
    assertNack(cluster("payments").type(Cluster.DiscoveryType.LOGICAL_DNS).build(),
        "type must be EDS, got LOGICAL_DNS");
    assertNack(cluster("payments").proto().clearType().build(), "type must be EDS, got unset (STATIC)");
    assertNack(cluster("payments").proto().setTypeValue(42).build(), "type must be EDS, got 42");
  }

  @Test
  void customClusterTypeIsRejectedNamingIt() {
    assertNack(
        cluster("payments").customType("envoy.clusters.aggregate", StringValue.of("x")).build(),
        "type must be EDS, got cluster_type \"envoy.clusters.aggregate\"");
  }

  @Test
  void edsConfigSelfIsAccepted() throws Exception {
    Cluster c = cluster("payments").edsConfig(XdsResources.selfConfigSource()).build();
    assertThat(ClusterDecoder.decode(c).edsServiceName()).isEqualTo("payments");
  }

  @Test
  @SuppressWarnings("deprecation") // ConfigSource.path: deprecated, but control planes may send it
  void edsConfigOtherThanAdsOrSelfIsRejected() {
    assertNack(
        cluster("payments").edsConfigPath("/etc/eds.yaml").build(),
        "eds_cluster_config.eds_config must be ads or self, got path_config_source");
    assertNack(
        cluster("payments").edsConfig(ConfigSource.newBuilder().setPath("/etc/eds.yaml").build()).build(),
        "eds_cluster_config.eds_config must be ads or self, got path");
    assertNack(
        cluster("payments").edsConfig(ConfigSource.newBuilder().setApiConfigSource(ApiConfigSource.getDefaultInstance())
            .build()).build(),
        "eds_cluster_config.eds_config must be ads or self, got api_config_source");
    assertNack(
        cluster("payments").noEdsClusterConfig().build(),
        "eds_cluster_config.eds_config must be ads or self, got unset");
  }

  @Test
  void serviceNameIsKeptWhenSet() throws Exception {
    assertThat(ClusterDecoder.decode(cluster("payments").edsServiceName("payments-eds").build()).edsServiceName())
        .isEqualTo("payments-eds");
  }

  @Test
  void legacyLbPolicyRoundRobinIsAccepted() throws Exception {
    assertThat(ClusterDecoder.decode(cluster("payments").lbPolicy(Cluster.LbPolicy.ROUND_ROBIN).build()).lbPolicy())
        .isEqualTo(LbPolicy.ROUND_ROBIN);
  }

  @Test
  void legacyLbPolicyOtherThanRoundRobinIsRejectedNamingIt() {
    assertNack(cluster("payments").lbPolicy(Cluster.LbPolicy.RING_HASH).build(),
        "lb_policy must be ROUND_ROBIN, got RING_HASH");
    assertNack(cluster("payments").lbPolicy(Cluster.LbPolicy.LEAST_REQUEST).build(),
        "lb_policy must be ROUND_ROBIN, got LEAST_REQUEST");
  }

  @Test
  void typedRoundRobinAndWrrLocalityRoundRobinAreAccepted() throws Exception {
    assertThat(ClusterDecoder.decode(cluster("a").loadBalancingPolicy(roundRobin()).build()).lbPolicy())
        .isEqualTo(LbPolicy.ROUND_ROBIN);
    assertThat(ClusterDecoder.decode(cluster("a").loadBalancingPolicy(wrrLocality(roundRobin())).build()).lbPolicy())
        .isEqualTo(LbPolicy.ROUND_ROBIN);
  }

  @Test
  void loadBalancingPolicyOverridesLbPolicy() throws Exception {
    Cluster c = cluster("a").lbPolicy(Cluster.LbPolicy.RING_HASH).loadBalancingPolicy(roundRobin()).build();
    assertThat(ClusterDecoder.decode(c).lbPolicy()).isEqualTo(LbPolicy.ROUND_ROBIN);
  }

  @Test
  void firstSupportedTypedPolicyWins() throws Exception {
    Cluster c = cluster("a").loadBalancingPolicy(LeastRequest.getDefaultInstance(), roundRobin()).build();
    assertThat(ClusterDecoder.decode(c).lbPolicy()).isEqualTo(LbPolicy.ROUND_ROBIN);
  }

  @Test
  void unsupportedTypedPolicyIsRejectedNamingTheType() {
    assertNack(
        cluster("a").loadBalancingPolicy(LeastRequest.getDefaultInstance()).build(),
        "load_balancing_policy must hold round_robin or wrr_locality{round_robin}, got "
            + "type.googleapis.com/envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest");
    assertNack(
        cluster("a").loadBalancingPolicy(wrrLocality(LeastRequest.getDefaultInstance())).build(),
        "load_balancing_policy must hold round_robin or wrr_locality{round_robin}, got wrr_locality{"
            + "type.googleapis.com/envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest}");
    assertNack(
        cluster("a").loadBalancingPolicy(wrrLocality(wrrLocality(roundRobin()))).build(),
        "load_balancing_policy must hold round_robin or wrr_locality{round_robin}, got wrr_locality{"
            + "type.googleapis.com/envoy.extensions.load_balancing_policies.wrr_locality.v3.WrrLocality}");
    assertNack(
        cluster("a").loadBalancingPolicy(new com.google.protobuf.Message[0]).build(),
        "load_balancing_policy must hold round_robin or wrr_locality{round_robin}, got no policies");
  }

  @Test
  void transportSocketMatchesAreRejected() {
    assertNack(cluster("a").transportSocketMatch("m").build(), "transport_socket_matches must be empty, got 1 entries");
  }

  @Test
  void lrsServerSelfEnablesLoadReporting() throws Exception {
    assertThat(ClusterDecoder.decode(cluster("a").lrsSelf().build()).lrsEnabled()).isTrue();
  }

  @Test
  void lrsServerOtherThanSelfIsRejected() {
    assertNack(cluster("a").lrsServer(XdsResources.adsConfigSource()).build(), "lrs_server must be self, got ads");
  }

  @Test
  void firstDefaultThresholdGivesMaxRequestsReadAsUnsigned() throws Exception {
    Cluster c =
        cluster("a")
            .maxRequests(RoutingPriority.HIGH, 5)
            .maxRequests(0xFFFF_FFFFL)
            .maxRequests(7)
            .build();
    assertThat(ClusterDecoder.decode(c).maxConcurrentRequests()).isEqualTo(0xFFFF_FFFFL);
  }

  @Test
  void maxRequestsDefaultsTo1024() throws Exception {
    assertThat(ClusterDecoder.decode(cluster("a").maxRequests(RoutingPriority.HIGH, 5).build()).maxConcurrentRequests())
        .isEqualTo(1024);
    Cluster unsetInDefault =
        cluster("a").threshold(CircuitBreakers.Thresholds.newBuilder().setPriority(RoutingPriority.DEFAULT).build())
            .build();
    assertThat(ClusterDecoder.decode(unsetInDefault).maxConcurrentRequests()).isEqualTo(1024);
  }

  @Test
  void upstreamTlsIsKeptAsData() throws Exception {
    assertThat(ClusterDecoder.decode(cluster("a").upstreamTls("a.example.com", "roots").build()).upstreamTls())
        .contains(new UpstreamTlsSettings(
            "a.example.com", Optional.empty(), Optional.of(new CertificateProviderInstance("roots", "")), false,
            List.of()));
  }

  @Test
  void transportSocketOtherThanTlsIsRejected() {
    assertNack(
        cluster("a").transportSocket(TransportSocket.newBuilder().setName("envoy.transport_sockets.raw_buffer").build())
            .build(),
        "transport_socket.name must be envoy.transport_sockets.tls, got \"envoy.transport_sockets.raw_buffer\"");
  }

  @Test
  void tlsSocketWithoutUpstreamTlsContextIsRejected() {
    assertNack(
        cluster("a").transportSocket(TransportSocket.newBuilder().setName("envoy.transport_sockets.tls").build())
            .build(),
        "transport_socket.typed_config must be an UpstreamTlsContext, got unset");
    assertNack(
        cluster("a")
            .transportSocket(
                TransportSocket.newBuilder()
                    .setName("envoy.transport_sockets.tls")
                    .setTypedConfig(Any.pack(StringValue.of("x")))
                    .build())
            .build(),
        "transport_socket.typed_config must be an UpstreamTlsContext, got "
            + "\"type.googleapis.com/google.protobuf.StringValue\"");
    Cluster garbage =
        cluster("a")
            .transportSocket(
                TransportSocket.newBuilder()
                    .setName("envoy.transport_sockets.tls")
                    .setTypedConfig(
                        Any.newBuilder()
                            .setTypeUrl(UpstreamTlsDecoder.UPSTREAM_TLS_TYPE_URL)
                            .setValue(ByteString.copyFrom(new byte[] {(byte) 0xFF, (byte) 0xFF})))
                    .build())
            .build();
    assertThatThrownBy(() -> ClusterDecoder.decode(garbage))
        .isInstanceOf(XdsResourceException.class)
        .hasMessageStartingWith("cluster \"a\": transport_socket.typed_config must be an UpstreamTlsContext, got "
            + "bytes");
  }

  private static void assertNack(Cluster cluster, String expected) {
    assertThatThrownBy(() -> ClusterDecoder.decode(cluster))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("cluster \"" + cluster.getName() + "\": " + expected)
        .extracting(e -> ((XdsResourceException) e).resourceName())
        .isEqualTo(cluster.getName());
  }
}
