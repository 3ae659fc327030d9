package io.jxds.api.internal.decode;

import static io.jxds.testing.XdsResources.cluster;
import static io.jxds.testing.XdsResources.roundRobin;
import static io.jxds.testing.XdsResources.wrrLocality;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.StringValue;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.UInt64Value;
import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.ApiConfigSource;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.RoutingPriority;
import io.envoyproxy.envoy.config.core.v3.RuntimeDouble;
import io.envoyproxy.envoy.config.core.v3.TransportSocket;
import io.envoyproxy.envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest;
import io.envoyproxy.envoy.extensions.load_balancing_policies.maglev.v3.Maglev;
import io.envoyproxy.envoy.extensions.load_balancing_policies.pick_first.v3.PickFirst;
import io.envoyproxy.envoy.extensions.load_balancing_policies.ring_hash.v3.RingHash;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.CertificateProviderInstance;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.UpstreamTlsSettings;
import io.jxds.testing.ClusterBuilder;
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
    String types = "type must be EDS or LOGICAL_DNS, or cluster_type envoy.clusters.aggregate, got ";
    assertNack(cluster("payments").type(Cluster.DiscoveryType.STRICT_DNS).build(), types + "STRICT_DNS");
    assertNack(cluster("payments").proto().clearType().build(), types + "unset (STATIC)");
    assertNack(cluster("payments").proto().setTypeValue(42).build(), types + "42");
  }

  @Test
  void customClusterTypeIsRejectedNamingIt() {
    assertNack(
        cluster("payments").customType("envoy.clusters.redis", StringValue.of("x")).build(),
        "type must be EDS or LOGICAL_DNS, or cluster_type envoy.clusters.aggregate, got cluster_type "
            + "\"envoy.clusters.redis\"");
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
  void legacyLbPolicyOutsideTheFourIsRejectedNamingIt() {
    assertNack(cluster("payments").lbPolicy(Cluster.LbPolicy.RANDOM).build(),
        "lb_policy must be ROUND_ROBIN, LEAST_REQUEST, RING_HASH or MAGLEV, got RANDOM");
    assertNack(cluster("payments").lbPolicy(Cluster.LbPolicy.CLUSTER_PROVIDED).build(),
        "lb_policy must be ROUND_ROBIN, LEAST_REQUEST, RING_HASH or MAGLEV, got CLUSTER_PROVIDED");
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
    Cluster c = cluster("a").loadBalancingPolicy(PickFirst.getDefaultInstance(), roundRobin()).build();
    assertThat(ClusterDecoder.decode(c).lbPolicy()).isEqualTo(LbPolicy.ROUND_ROBIN);
  }

  @Test
  void unsupportedTypedPolicyIsRejectedNamingTheType() {
    String must = "load_balancing_policy must hold round_robin, least_request, ring_hash, maglev or "
        + "wrr_locality{round_robin or least_request}, got ";
    assertNack(
        cluster("a").loadBalancingPolicy(PickFirst.getDefaultInstance()).build(),
        must + "type.googleapis.com/envoy.extensions.load_balancing_policies.pick_first.v3.PickFirst");
    assertNack(
        cluster("a").loadBalancingPolicy(wrrLocality(RingHash.getDefaultInstance())).build(),
        must + "wrr_locality{type.googleapis.com/envoy.extensions.load_balancing_policies.ring_hash.v3.RingHash}");
    assertNack(
        cluster("a").loadBalancingPolicy(wrrLocality(wrrLocality(roundRobin()))).build(),
        must + "wrr_locality{type.googleapis.com/envoy.extensions.load_balancing_policies."
            + "wrr_locality.v3.WrrLocality}");
    assertNack(cluster("a").loadBalancingPolicy(new com.google.protobuf.Message[0]).build(), must + "no policies");
  }

  // Least request (gRFC A48), both forms.

  @Test
  void leastRequestDecodesFromEachFormWithDefaults() throws Exception {
    LbPolicy defaults = new LbPolicy.LeastRequest(2, 1.0);
    assertThat(lbPolicy(cluster("a").lbPolicy(Cluster.LbPolicy.LEAST_REQUEST))).isEqualTo(defaults);
    assertThat(lbPolicy(cluster("a").loadBalancingPolicy(LeastRequest.getDefaultInstance()))).isEqualTo(defaults);
    assertThat(lbPolicy(cluster("a").loadBalancingPolicy(wrrLocality(LeastRequest.getDefaultInstance()))))
        .isEqualTo(defaults);
  }

  @Test
  void leastRequestSettingsAreKept() throws Exception {
    ClusterBuilder legacy = cluster("a").lbPolicy(Cluster.LbPolicy.LEAST_REQUEST);
    legacy.proto().setLeastRequestLbConfig(Cluster.LeastRequestLbConfig.newBuilder()
        .setChoiceCount(UInt32Value.of(10)).setActiveRequestBias(bias(0.5)));
    assertThat(lbPolicy(legacy)).isEqualTo(new LbPolicy.LeastRequest(10, 0.5));
    LeastRequest typed = LeastRequest.newBuilder().setChoiceCount(UInt32Value.of(3)).setActiveRequestBias(bias(0))
        .build();
    assertThat(lbPolicy(cluster("a").loadBalancingPolicy(wrrLocality(typed))))
        .isEqualTo(new LbPolicy.LeastRequest(3, 0));
  }

  @Test
  void leastRequestChoiceCountOutsideTwoToTenIsRejected() {
    for (int bad : new int[] {0, 1, 11, -1}) {
      ClusterBuilder legacy = cluster("a").lbPolicy(Cluster.LbPolicy.LEAST_REQUEST);
      legacy.proto().setLeastRequestLbConfig(
          Cluster.LeastRequestLbConfig.newBuilder().setChoiceCount(UInt32Value.of(bad)));
      assertNack(legacy.build(),
          "least_request_lb_config.choice_count must be in [2, 10], got " + Integer.toUnsignedString(bad));
    }
    LeastRequest typed = LeastRequest.newBuilder().setChoiceCount(UInt32Value.of(1)).build();
    assertNack(cluster("a").loadBalancingPolicy(typed).build(),
        "load_balancing_policy least_request.choice_count must be in [2, 10], got 1");
    assertNack(cluster("a").loadBalancingPolicy(wrrLocality(typed)).build(),
        "load_balancing_policy wrr_locality.least_request.choice_count must be in [2, 10], got 1");
  }

  @Test
  void leastRequestNegativeOrNanBiasIsRejected() {
    ClusterBuilder legacy = cluster("a").lbPolicy(Cluster.LbPolicy.LEAST_REQUEST);
    legacy.proto().setLeastRequestLbConfig(Cluster.LeastRequestLbConfig.newBuilder().setActiveRequestBias(bias(-1)));
    assertNack(legacy.build(),
        "least_request_lb_config.active_request_bias.default_value must be finite and >= 0, got -1.0");
    LeastRequest typed = LeastRequest.newBuilder().setActiveRequestBias(bias(Double.NaN)).build();
    assertNack(cluster("a").loadBalancingPolicy(typed).build(),
        "load_balancing_policy least_request.active_request_bias.default_value must be finite and >= 0, got NaN");
  }

  // Ring hash (gRFC A42), both forms.

  @Test
  void ringHashDecodesFromEachFormWithDefaults() throws Exception {
    LbPolicy defaults = new LbPolicy.RingHash(1024, 8 * 1024 * 1024);
    assertThat(lbPolicy(cluster("a").lbPolicy(Cluster.LbPolicy.RING_HASH))).isEqualTo(defaults);
    assertThat(lbPolicy(cluster("a").loadBalancingPolicy(RingHash.getDefaultInstance()))).isEqualTo(defaults);
    RingHash xx = RingHash.newBuilder().setHashFunction(RingHash.HashFunction.XX_HASH)
        .setMinimumRingSize(UInt64Value.of(10)).setMaximumRingSize(UInt64Value.of(20)).build();
    assertThat(lbPolicy(cluster("a").loadBalancingPolicy(xx))).isEqualTo(new LbPolicy.RingHash(10, 20));
  }

  @Test
  void ringHashOtherThanXxHashIsRejected() {
    ClusterBuilder legacy = cluster("a").lbPolicy(Cluster.LbPolicy.RING_HASH);
    legacy.proto().setRingHashLbConfig(Cluster.RingHashLbConfig.newBuilder()
        .setHashFunction(Cluster.RingHashLbConfig.HashFunction.MURMUR_HASH_2));
    assertNack(legacy.build(), "ring_hash_lb_config.hash_function must be XX_HASH, got MURMUR_HASH_2");
    assertNack(cluster("a").loadBalancingPolicy(
            RingHash.newBuilder().setHashFunction(RingHash.HashFunction.MURMUR_HASH_2).build()).build(),
        "load_balancing_policy ring_hash.hash_function must be XX_HASH, got MURMUR_HASH_2");
  }

  @Test
  void ringSizesOutOfRangeOrCrossedAreRejected() {
    assertNack(legacyRing(0, 100), "ring_hash_lb_config.minimum_ring_size must be in [1, 8388608], got 0");
    assertNack(legacyRing(1, 8388609), "ring_hash_lb_config.maximum_ring_size must be in [1, 8388608], got 8388609");
    assertNack(legacyRing(8388609, 8388608),
        "ring_hash_lb_config.minimum_ring_size must be in [1, 8388608], got 8388609");
    assertNack(legacyRing(-1, 10),
        "ring_hash_lb_config.minimum_ring_size must be in [1, 8388608], got 18446744073709551615");
    assertNack(legacyRing(200, 100),
        "ring_hash_lb_config.minimum_ring_size must be at most maximum_ring_size 100, got 200");
    assertNack(cluster("a").loadBalancingPolicy(RingHash.newBuilder().setMaximumRingSize(UInt64Value.of(0)).build())
            .build(),
        "load_balancing_policy ring_hash.maximum_ring_size must be in [1, 8388608], got 0");
  }

  @Test
  void ringSizesAtTheLimitsAreAccepted() throws Exception {
    assertThat(ClusterDecoder.decode(legacyRing(1, 8388608)).lbPolicy()).isEqualTo(new LbPolicy.RingHash(1, 8388608));
    assertThat(ClusterDecoder.decode(legacyRing(5, 5)).lbPolicy()).isEqualTo(new LbPolicy.RingHash(5, 5));
  }

  // Maglev, both forms.

  @Test
  void maglevDecodesFromEachFormWithDefaults() throws Exception {
    assertThat(lbPolicy(cluster("a").lbPolicy(Cluster.LbPolicy.MAGLEV))).isEqualTo(new LbPolicy.Maglev(65537));
    assertThat(lbPolicy(cluster("a").loadBalancingPolicy(Maglev.getDefaultInstance())))
        .isEqualTo(new LbPolicy.Maglev(65537));
    assertThat(lbPolicy(cluster("a").loadBalancingPolicy(Maglev.newBuilder().setTableSize(UInt64Value.of(5000011))
        .build()))).isEqualTo(new LbPolicy.Maglev(5000011));
  }

  @Test
  void maglevTableSizeNotPrimeOrTooLargeIsRejected() {
    ClusterBuilder legacy = cluster("a").lbPolicy(Cluster.LbPolicy.MAGLEV);
    legacy.proto().setMaglevLbConfig(Cluster.MaglevLbConfig.newBuilder().setTableSize(UInt64Value.of(65536)));
    assertNack(legacy.build(), "maglev_lb_config.table_size must be a prime of at most 5000011, got 65536");
    assertNack(cluster("a").loadBalancingPolicy(Maglev.newBuilder().setTableSize(UInt64Value.of(5000077)).build())
        .build(), "load_balancing_policy maglev.table_size must be a prime of at most 5000011, got 5000077");
    assertNack(cluster("a").loadBalancingPolicy(Maglev.newBuilder().setTableSize(UInt64Value.of(1)).build())
        .build(), "load_balancing_policy maglev.table_size must be a prime of at most 5000011, got 1");
  }

  @Test
  void typedPolicyWhoseBytesDoNotParseIsRejected() {
    Cluster c = cluster("a").loadBalancingPolicy(io.envoyproxy.envoy.config.cluster.v3.LoadBalancingPolicy.newBuilder()
        .addPolicies(io.envoyproxy.envoy.config.cluster.v3.LoadBalancingPolicy.Policy.newBuilder()
            .setTypedExtensionConfig(io.envoyproxy.envoy.config.core.v3.TypedExtensionConfig.newBuilder()
                .setName("m")
                .setTypedConfig(Any.newBuilder()
                    .setTypeUrl("type.googleapis.com/envoy.extensions.load_balancing_policies.maglev.v3.Maglev")
                    .setValue(ByteString.copyFrom(new byte[] {(byte) 0xff})))))
        .build()).build();
    assertThatThrownBy(() -> ClusterDecoder.decode(c))
        .hasMessageStartingWith("cluster \"a\": load_balancing_policy maglev must parse, got bytes that do not parse");
  }

  private static LbPolicy lbPolicy(ClusterBuilder cluster) throws XdsResourceException {
    return ClusterDecoder.decode(cluster.build()).lbPolicy();
  }

  private static Cluster legacyRing(long min, long max) {
    ClusterBuilder c = cluster("a").lbPolicy(Cluster.LbPolicy.RING_HASH);
    c.proto().setRingHashLbConfig(Cluster.RingHashLbConfig.newBuilder()
        .setMinimumRingSize(UInt64Value.of(min)).setMaximumRingSize(UInt64Value.of(max)));
    return c.build();
  }

  private static RuntimeDouble bias(double value) {
    return RuntimeDouble.newBuilder().setDefaultValue(value).setRuntimeKey("k").build();
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
