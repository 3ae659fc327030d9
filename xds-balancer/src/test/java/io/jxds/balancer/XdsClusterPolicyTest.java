package io.jxds.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class XdsClusterPolicyTest {
  @Test
  void targetIsTheResolversSchemeWithTheClusterAsPath() {
    assertThat(XdsClusterPolicy.target("payments")).isEqualTo("xds-cluster:///payments");
    // A name a URI path cannot hold as is comes back intact from the path the resolver reads.
    assertThat(URI.create(XdsClusterPolicy.target("a b%c")).getPath()).isEqualTo("/a b%c");
  }

  @Test
  void serviceConfigSelectsThePolicyForTheCluster() {
    assertThat(XdsClusterPolicy.serviceConfig("payments"))
        .isEqualTo(Map.of("loadBalancingConfig", List.of(Map.of("xds_cluster", Map.of("cluster", "payments")))));
  }

  @Test
  void emptyClusterIsRejected() {
    assertThatThrownBy(() -> XdsClusterPolicy.target("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> XdsClusterPolicy.serviceConfig("")).isInstanceOf(IllegalArgumentException.class);
  }
}
