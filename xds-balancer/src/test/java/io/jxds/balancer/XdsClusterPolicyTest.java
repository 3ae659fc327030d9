package io.jxds.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jxds.balancer.internal.ClusterPolicyConfig;
import io.jxds.balancer.internal.ClusterPolicyConfigParser;
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
  void targetPercentEncodesIstioClusterNames() {
    assertThat(XdsClusterPolicy.target("outbound|8080||echo.default.svc.cluster.local"))
        .isEqualTo("xds-cluster:///outbound%7C8080%7C%7Cecho.default.svc.cluster.local");
    assertThat(XdsClusterPolicy.target("outbound|8080|v1|echo.default.svc.cluster.local"))
        .isEqualTo("xds-cluster:///outbound%7C8080%7Cv1%7Cecho.default.svc.cluster.local");
  }

  @Test
  void targetKeepsPathSegmentCharactersAndEncodesEveryOtherByte() {
    assertThat(XdsClusterPolicy.target("az-AZ_09.~!$&'()*+,;=:@")).isEqualTo("xds-cluster:///az-AZ_09.~!$&'()*+,;=:@");
    assertThat(XdsClusterPolicy.target("a/b%c d?e#f[g]\"\u00e9"))
        .isEqualTo("xds-cluster:///a%2Fb%25c%20d%3Fe%23f%5Bg%5D%22%C3%A9");
  }

  @Test
  void serviceConfigSelectsThePolicyForTheCluster() {
    assertThat(XdsClusterPolicy.serviceConfig("payments"))
        .isEqualTo(Map.of("loadBalancingConfig", List.of(Map.of("xds_cluster", Map.of("cluster", "payments")))));
  }

  @Test
  void serviceConfigWithHashHeaderParsesToThatHeader() {
    Map<String, ?> config = XdsClusterPolicy.serviceConfig("carts", "x-user-id");
    assertThat(config).isEqualTo(Map.of("loadBalancingConfig",
        List.of(Map.of("xds_cluster", Map.of("cluster", "carts", "hashHeader", "x-user-id")))));
    @SuppressWarnings("unchecked")
    Map<String, ?> policy = (Map<String, ?>) ((List<Map<String, ?>>) config.get("loadBalancingConfig")).get(0)
        .get("xds_cluster");
    assertThat(((ClusterPolicyConfig) ClusterPolicyConfigParser.parse(policy).getConfig()).hashHeader())
        .isEqualTo("x-user-id");
    assertThatThrownBy(() -> XdsClusterPolicy.serviceConfig("carts", "")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void emptyClusterIsRejected() {
    assertThatThrownBy(() -> XdsClusterPolicy.target("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> XdsClusterPolicy.serviceConfig("")).isInstanceOf(IllegalArgumentException.class);
  }
}
