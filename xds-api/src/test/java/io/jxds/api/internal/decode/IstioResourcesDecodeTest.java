package io.jxds.api.internal.decode;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.HealthStatus;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.Locality;
import io.jxds.api.model.LocalityId;
import io.jxds.testing.IstioClusterBuilder;
import io.jxds.testing.IstioResources;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What istiod sends a proxyless gRPC client ({@link IstioResources}) decodes with jxds's decoders. */
class IstioResourcesDecodeTest {
  private static final String HOST = "echo.default.svc.cluster.local";
  private static final String CLUSTER = "outbound|8080||echo.default.svc.cluster.local";

  @Test
  void clusterWithoutDestinationRuleDecodesAsRoundRobinWithItsOwnNameAsEdsServiceName() throws Exception {
    ClusterUpdate update = ClusterDecoder.decode(IstioResources.cluster(HOST, 8080).build());

    assertThat(update)
        .isEqualTo(new ClusterUpdate(CLUSTER, CLUSTER, false, 1024, LbPolicy.ROUND_ROBIN, Optional.empty()));
  }

  @Test
  void roundRobinClusterDecodesWithItsCircuitBreaker() throws Exception {
    ClusterUpdate update = ClusterDecoder.decode(IstioResources.cluster(HOST, 8080).roundRobin()
        .http2MaxRequests(100).build());

    assertThat(update)
        .isEqualTo(new ClusterUpdate(CLUSTER, CLUSTER, false, 100, LbPolicy.ROUND_ROBIN, Optional.empty()));
  }

  @Test
  void subsetClusterDecodes() throws Exception {
    ClusterUpdate update = ClusterDecoder.decode(IstioResources.subsetCluster(HOST, 8080, "v1").roundRobin().build());

    assertThat(update.clusterName()).isEqualTo("outbound|8080|v1|echo.default.svc.cluster.local");
    assertThat(update.edsServiceName()).isEqualTo(update.clusterName());
    assertThat(update.maxConcurrentRequests()).isEqualTo(ClusterUpdate.DEFAULT_MAX_CONCURRENT_REQUESTS);
  }

  @Test
  void clusterFilterMetadataIsIgnoredAsGrpcJavaIgnoresIt() throws Exception {
    // istiod's sidecar clusters carry istio metadata (services, default_original_port); a client that
    // reads no cluster metadata must still accept the cluster.
    Struct service = Struct.newBuilder()
        .putFields("host", Value.newBuilder().setStringValue(HOST).build())
        .putFields("name", Value.newBuilder().setStringValue("echo").build())
        .putFields("namespace", Value.newBuilder().setStringValue("default").build())
        .build();
    Struct istio = Struct.newBuilder()
        .putFields("services", Value.newBuilder().setListValue(
            ListValue.newBuilder().addValues(Value.newBuilder().setStructValue(service))).build())
        .putFields("default_original_port", Value.newBuilder().setNumberValue(8080).build())
        .build();
    IstioClusterBuilder cluster = IstioResources.cluster(HOST, 8080).roundRobin();
    cluster.proto().setMetadata(Metadata.newBuilder().putFilterMetadata("istio", istio));

    assertThat(ClusterDecoder.decode(cluster.build()).clusterName()).isEqualTo(CLUSTER);
  }

  /**
   * What istiod sends for a DestinationRule {@code loadBalancer}: LEAST_REQUEST for {@code simple:
   * LEAST_REQUEST}, RING_HASH (minimum ring size 1024) for a {@code consistentHash}, MAGLEV for
   * {@code consistentHash.maglev}.
   */
  @Test
  void destinationRuleLbPoliciesDecode() throws Exception {
    assertThat(ClusterDecoder.decode(IstioResources.cluster(HOST, 8080).leastRequest().build()).lbPolicy())
        .isEqualTo(new LbPolicy.LeastRequest(
            LbPolicy.LeastRequest.DEFAULT_CHOICE_COUNT, LbPolicy.LeastRequest.DEFAULT_ACTIVE_REQUEST_BIAS));
    assertThat(ClusterDecoder.decode(IstioResources.cluster(HOST, 8080).consistentHash().build()).lbPolicy())
        .isInstanceOfSatisfying(LbPolicy.RingHash.class, r -> assertThat(r.minRingSize()).isEqualTo(1024));
    assertThat(ClusterDecoder.decode(IstioResources.cluster(HOST, 8080).maglev().build()).lbPolicy())
        .isInstanceOf(LbPolicy.Maglev.class);
    ClusterUpdate subset = ClusterDecoder.decode(
        IstioResources.subsetCluster(HOST, 8080, "v1").consistentHash(4096).http2MaxRequests(10).build());
    assertThat(subset.lbPolicy())
        .isInstanceOfSatisfying(LbPolicy.RingHash.class, r -> assertThat(r.minRingSize()).isEqualTo(4096));
    assertThat(subset.maxConcurrentRequests()).isEqualTo(10);
  }

  @Test
  void assignmentDecodesWithLocalitiesAndWeightsAndItsMetadataIgnored() throws Exception {
    ClusterLoadAssignment assignment = IstioResources.endpoints(HOST, 8080)
        .locality("us-east1/us-east1-b/rack-1")
        .endpoint("echo-a", "10.0.0.1", 8080)
        .endpoint("echo-b", "10.0.0.2", 8080, 3)
        .locality("us-west1/us-west1-a").priority(1)
        .endpoint("echo-c", "10.0.1.1", 8080, 2, io.envoyproxy.envoy.config.core.v3.HealthStatus.DRAINING)
        .build();

    EndpointsUpdate update = EndpointsDecoder.decode(assignment);

    assertThat(update.clusterName()).isEqualTo(CLUSTER);
    assertThat(update.localities()).containsExactly(
        new Locality(new LocalityId("us-east1", "us-east1-b", "rack-1"), 0, 4, List.of(
            new Endpoint(new InetSocketAddress("10.0.0.1", 8080), HealthStatus.HEALTHY, 1, ""),
            new Endpoint(new InetSocketAddress("10.0.0.2", 8080), HealthStatus.HEALTHY, 3, ""))),
        new Locality(new LocalityId("us-west1", "us-west1-a", ""), 1, 2, List.of(
            new Endpoint(new InetSocketAddress("10.0.1.1", 8080), HealthStatus.DRAINING, 2, ""))));
    // The one-pass reader gives the same answer from the wire bytes.
    assertThat(EndpointsDecoder.decode(assignment.toByteString())).isEqualTo(update);
  }
}
