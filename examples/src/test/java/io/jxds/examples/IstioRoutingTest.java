package io.jxds.examples;

import io.grpc.ManagedChannel;
import io.jxds.testing.IstioResources;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsTestBed;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

// docs/testing.md:begin
class IstioRoutingTest {
  @RegisterExtension final XdsTestBed bed = new XdsTestBed();

  @Test
  void echoSplitsEvenlyAcrossTwoZonesAsIstiodWeightsThem() {
    String host = "echo.default.svc.cluster.local";
    List<TestBackend> pods = bed.backends().start(2);
    bed.ads().setClusters(IstioResources.cluster(host, 8080).build());
    bed.ads().setEndpoints(IstioResources.endpoints(host, 8080)
        .locality("us-east1/us-east1-b/rack-1")
        .endpoint("echo-v1-7d9f", pods.get(0).ip(), pods.get(0).port())
        .locality("us-east1/us-east1-c/rack-1")
        .endpoint("echo-v1-5c2a", pods.get(1).ip(), pods.get(1).port())
        .build());

    // The channel's target is xds-cluster:///outbound%7C8080%7C%7Cecho.default.svc.cluster.local.
    ManagedChannel channel = bed.newChannel(IstioResources.clusterName(host, 8080));
    bed.awaitShares(channel, Map.of(pods.get(0), 0.5, pods.get(1), 0.5), 0.05);
  }
}
// docs/testing.md:end
