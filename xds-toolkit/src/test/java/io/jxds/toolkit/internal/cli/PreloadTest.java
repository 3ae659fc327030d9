package io.jxds.toolkit.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.api.ResourceTypes;
import io.jxds.toolkit.internal.read.MessageTypes;
import org.junit.jupiter.api.Test;

/** The preload runs once per JVM and leaves the descriptors reading asks for built and cached. */
class PreloadTest {
  @Test
  void startsOnceAndLeavesTheDescriptorsBuilt() throws Exception {
    Thread first = Preload.start(); // null when another test's Main.run started it
    if (first != null) {
      first.join(60_000);
      assertThat(first.isAlive()).isFalse();
    }
    assertThat(Preload.start()).as("a second start").isNull();
    assertThat(MessageTypes.find(ResourceTypes.CLUSTER_TYPE_URL)).get()
        .isSameAs(MessageTypes.find(ResourceTypes.CLUSTER_TYPE_URL).orElseThrow())
        .extracting(d -> d.getFullName()).isEqualTo("envoy.config.cluster.v3.Cluster");
    assertThat(MessageTypes.find(ResourceTypes.ENDPOINTS_TYPE_URL)).get()
        .extracting(d -> d.getFullName()).isEqualTo("envoy.config.endpoint.v3.ClusterLoadAssignment");
  }
}
