package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.admin.v3.ClientResourceStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.status.v3.ClientConfig;
import io.envoyproxy.envoy.service.status.v3.ClientConfig.GenericXdsConfig;
import io.envoyproxy.envoy.service.status.v3.ClientStatusResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --status} explains the states that point at a problem: UNKNOWN and TIMEOUT (gRFC A40). */
class CsdsStatusStatesTest {
  private static final String CDS = "type.googleapis.com/envoy.config.cluster.v3.Cluster";

  @Test
  void unknownAndTimeoutSayWhatTheyMean() {
    ClientStatusResponse response = ClientStatusResponse.newBuilder().addConfig(ClientConfig.newBuilder()
        .setNode(Node.newBuilder().setId("demo"))
        .setClientScope("127.0.0.1:18000")
        .addGenericXdsConfigs(GenericXdsConfig.newBuilder().setTypeUrl(CDS).setName("payments")
            .setClientStatus(ClientResourceStatus.UNKNOWN))
        .addGenericXdsConfigs(GenericXdsConfig.newBuilder().setTypeUrl(CDS).setName("orders")
            .setClientStatus(ClientResourceStatus.TIMEOUT)))
        .build();

    List<String> lines = CsdsStatus.render(response);

    assertThat(lines).anyMatch(l -> l.matches(" +CDS +payments +UNKNOWN +- +- *"))
        .contains("      not requested yet: no stream to the control plane is ready")
        .anyMatch(l -> l.matches(" +CDS +orders +TIMEOUT +- +- *"))
        .contains("      no answer within the resource timeout: taken as not existing");
  }
}
