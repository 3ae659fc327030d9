package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.envoyproxy.envoy.admin.v3.ClientResourceStatus;
import io.envoyproxy.envoy.admin.v3.UpdateFailureState;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.status.v3.ClientConfig;
import io.envoyproxy.envoy.service.status.v3.ClientConfig.GenericXdsConfig;
import io.envoyproxy.envoy.service.status.v3.ClientStatusResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code --status} table: one row per resource, a NACK's error under it, 80 columns at most. */
class CsdsStatusTest {
  private static final String CDS = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
  private static final String EDS = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";

  @Test
  void rendersEachResourceWithItsStateAndTheNackError() {
    ClientStatusResponse response = ClientStatusResponse.newBuilder().addConfig(ClientConfig.newBuilder()
        .setNode(Node.newBuilder().setId("demo"))
        .setClientScope("127.0.0.1:18000")
        .addGenericXdsConfigs(GenericXdsConfig.newBuilder().setTypeUrl(CDS).setName("payments")
            .setVersionInfo("3").setClientStatus(ClientResourceStatus.ACKED)
            .setLastUpdated(Timestamp.newBuilder().setSeconds(3723))
            .setXdsConfig(Any.newBuilder().setTypeUrl(CDS).setValue(ByteString.copyFrom(new byte[42]))))
        .addGenericXdsConfigs(GenericXdsConfig.newBuilder().setTypeUrl(CDS).setName("orders")
            .setVersionInfo("2").setClientStatus(ClientResourceStatus.NACKED)
            .setErrorState(UpdateFailureState.newBuilder().setVersionInfo("4")
                .setDetails("Cluster \"orders\": eds_cluster_config.eds_config must be ads or self, got path "
                    + "/etc/eds.yaml, which gRPC clients do not support")))
        .addGenericXdsConfigs(GenericXdsConfig.newBuilder().setTypeUrl(EDS).setName("payments")
            .setClientStatus(ClientResourceStatus.REQUESTED)))
        .build();

    List<String> lines = CsdsStatus.render(response);

    assertThat(lines).contains("CSDS: 1 xDS client")
        .contains("  node \"demo\", control plane 127.0.0.1:18000, 3 resources");
    assertThat(lines).anyMatch(l -> l.matches(" +CDS +payments +ACKED +3 +01:02:03.000 +42 B"));
    assertThat(lines).anyMatch(l -> l.matches(" +CDS +orders +NACKED +2 +- *"));
    assertThat(lines).anyMatch(l -> l.startsWith("      rejected version 4: Cluster \"orders\": eds_cluster_config")
        && l.endsWith("..."));
    assertThat(lines).anyMatch(l -> l.matches(" +EDS +payments +REQUESTED +- +- *"));
    assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
  }
}
