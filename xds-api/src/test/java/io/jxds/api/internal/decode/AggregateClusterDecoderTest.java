package io.jxds.api.internal.decode;

import static io.jxds.testing.XdsResources.cluster;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.StringValue;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.extensions.clusters.aggregate.v3.ClusterConfig;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.AggregateCluster;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.testing.ClusterBuilder;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Aggregate clusters (gRFC A37, A75): what decodes, and each NACK naming the resource and the field. */
class AggregateClusterDecoderTest {
  private static final String AGGREGATE = "envoy.clusters.aggregate";

  private static ClusterBuilder aggregate(String name, String... clusters) {
    return cluster(name).aggregate(clusters);
  }

  @Test
  void fixtureBuildsWhatEnvoyExpects() throws Exception {
    Cluster c = cluster("global").aggregate("a", "b").build();

    assertThat(c.getLbPolicy()).isEqualTo(Cluster.LbPolicy.CLUSTER_PROVIDED);
    assertThat(c.getClusterType().getName()).isEqualTo(AGGREGATE);
    assertThat(c.getClusterType().getTypedConfig().unpack(ClusterConfig.class).getClustersList())
        .containsExactly("a", "b");
    assertThat(c.hasEdsClusterConfig()).isFalse();
  }

  @Test
  void aggregateDecodesToItsClustersInPriorityOrder() throws Exception {
    ClusterUpdate update = ClusterDecoder.decode(aggregate("global", "us-east", "eu-west", "dns-fallback").build());

    assertThat(update.aggregate()).contains(AggregateCluster.of("us-east", "eu-west", "dns-fallback"));
    assertThat(update).isEqualTo(ClusterUpdate.aggregate("global", AggregateCluster.of("us-east", "eu-west",
        "dns-fallback")));
    assertThat(update.logicalDns()).isEqualTo(Optional.empty());
  }

  @Test
  void repeatedClustersAreKeptForTheTreeToDeduplicate() throws Exception {
    ClusterUpdate update = ClusterDecoder.decode(aggregate("global", "a", "b", "a").build());

    assertThat(update.aggregate().orElseThrow().clusters()).containsExactly("a", "b", "a");
  }

  /** Envoy requires CLUSTER_PROVIDED on an aggregate; grpc-java NACKs it; gRFC A75: ignore it. */
  @Test
  void clusterProvidedLbPolicyIsAcceptedAndIgnored() throws Exception {
    ClusterUpdate update = ClusterDecoder.decode(
        aggregate("global", "a").lbPolicy(Cluster.LbPolicy.CLUSTER_PROVIDED).build());

    assertThat(update).isEqualTo(ClusterUpdate.aggregate("global", AggregateCluster.of("a")));
  }

  @Test
  void theAggregatesOwnFieldsAreNotReadEvenWhenBroken() throws Exception {
    // gRFC A75: each underlying cluster brings its own policy, circuit breaker, TLS and outlier
    // detection; a bad load_balancing_policy on the aggregate cannot matter.
    ClusterUpdate update = ClusterDecoder.decode(aggregate("global", "a")
        .loadBalancingPolicy(StringValue.of("not a policy")).maxRequests(3).upstreamTls("x").build());

    assertThat(update).isEqualTo(ClusterUpdate.aggregate("global", AggregateCluster.of("a")));
  }

  @Test
  void emptyClusterListIsRejected() {
    assertNack(aggregate("global").build(),
        "cluster_type.typed_config (aggregate ClusterConfig).clusters must not be empty, got []");
  }

  @Test
  void emptyClusterNameIsRejectedNamingItsIndex() {
    assertNack(aggregate("global", "a", "").build(),
        "cluster_type.typed_config (aggregate ClusterConfig).clusters[1] must not be empty, got \"\"");
  }

  /** A cluster naming itself is a loop whatever the other resources say: NACKed, not left to the channel. */
  @Test
  void aggregateNamingItselfIsRejected() {
    assertNack(aggregate("global", "a", "global").build(),
        "cluster_type.typed_config (aggregate ClusterConfig).clusters[1] must not name the aggregate itself, "
            + "got \"global\"");
  }

  @Test
  void wrongTypedConfigIsRejectedNamingItsType() {
    assertNack(cluster("global").customType(AGGREGATE, StringValue.of("a")).build(),
        "cluster_type.typed_config must be type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig,"
            + " got type.googleapis.com/google.protobuf.StringValue");
  }

  @Test
  void undecodableTypedConfigIsRejected() {
    Cluster c = aggregate("global", "a").proto().setClusterType(Cluster.CustomClusterType.newBuilder()
        .setName(AGGREGATE)
        .setTypedConfig(Any.newBuilder()
            .setTypeUrl("type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig")
            .setValue(ByteString.copyFrom(new byte[] {(byte) 0xff, 0x01}))))
        .build();

    assertThatThrownBy(() -> ClusterDecoder.decode(c))
        .isInstanceOf(XdsResourceException.class)
        .hasMessageStartingWith("cluster \"global\": cluster_type.typed_config must be a valid aggregate "
            + "ClusterConfig, got ");
  }

  @Test
  void otherCustomClusterTypeIsRejectedNamingIt() {
    assertNack(cluster("global").customType("envoy.clusters.redis", StringValue.of("x")).build(),
        "type must be EDS or LOGICAL_DNS, or cluster_type envoy.clusters.aggregate, got cluster_type "
            + "\"envoy.clusters.redis\"");
  }

  private static void assertNack(Cluster c, String message) {
    assertThatThrownBy(() -> ClusterDecoder.decode(c))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("cluster \"" + c.getName() + "\": " + message)
        .extracting(e -> ((XdsResourceException) e).resourceName())
        .isEqualTo(c.getName());
  }
}
