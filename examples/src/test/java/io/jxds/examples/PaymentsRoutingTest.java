package io.jxds.examples;

// docs/testing.md:begin
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;

import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PaymentsRoutingTest {
  @RegisterExtension final XdsTestBed bed = new XdsTestBed(); // a FakeAdsServer and its bootstrap, per test

  @Test
  void paymentsSplits75To25() {
    List<TestBackend> b = bed.backends().start(2); // real gRPC servers on 127.0.0.1
    bed.ads().setClusters(XdsResources.cluster("payments").build());
    bed.ads().setEndpoints(XdsResources.endpoints("payments")
        .locality("us", "us-a", "", l -> l.weight(3).endpoint(b.get(0).ip(), b.get(0).port(), HEALTHY))
        .locality("us", "us-b", "", l -> l.weight(1).endpoint(b.get(1).ip(), b.get(1).port(), HEALTHY))
        .build());

    // A jxds channel on xds-cluster:///payments; waits until its RPCs split 75/25, give or take 5 %.
    bed.awaitShares(bed.newChannel("payments"), Map.of(b.get(0), 0.75, b.get(1), 0.25), 0.05);
  }
}
// docs/testing.md:end
