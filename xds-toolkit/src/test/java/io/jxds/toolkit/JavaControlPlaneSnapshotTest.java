package io.jxds.toolkit;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.jxds.toolkit.assertj.ToolkitAssertions.assertThat;

import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.jxds.testing.XdsResources;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A java-control-plane author checks the snapshot their control plane builds, without a client. */
class JavaControlPlaneSnapshotTest {
  @Test
  void snapshotBuiltWithJavaControlPlaneIsCheckedAndPlanned() {
    Snapshot snapshot = Snapshot.create(
        List.of(XdsResources.cluster("payments").edsServiceName("payments-eds").build(),
            XdsResources.cluster("orders").build()),
        List.of(XdsResources.endpoints("payments-eds")
                .locality("us", "a", "", l -> l.weight(3).endpoint("10.0.0.3", 8080, HEALTHY))
                .locality("us", "b", "", l -> l.weight(1).endpoint("10.0.0.4", 8080, HEALTHY))
                .build(),
            XdsResources.endpoints("orders")
                .locality("us", "a", "", l -> l.priority(1).endpoint("10.0.1.1", 8080, HEALTHY))
                .build()),
        List.of(), List.of(), List.of(), "v1");

    // docs/toolkit.md:begin
    List<com.google.protobuf.Message> resources = new ArrayList<>(snapshot.clusters().resources().values());
    resources.addAll(snapshot.endpoints().resources().values());
    TrafficPlan plan = io.jxds.toolkit.Snapshot.of(resources).plan();
    // docs/toolkit.md:end

    assertThat(plan).cluster("payments").endpoint("10.0.0.3:8080").hasShare(0.75);
    assertThat(plan.check()).rejects("orders").withMessageContaining("priorities");
    assertThat(plan).cluster("orders").hasState(ClusterPlan.State.ENDPOINTS_NACKED);
  }
}
