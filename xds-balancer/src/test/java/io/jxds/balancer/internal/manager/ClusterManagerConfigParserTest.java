package io.jxds.balancer.internal.manager;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.NameResolver.ConfigOrError;
import io.grpc.Status;
import io.jxds.balancer.internal.ClusterPolicyConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterManagerConfigParserTest {
  @Test
  void eachEntryIsAnXdsClusterConfigNamedByItsKey() {
    ConfigOrError parsed = ClusterManagerConfigParser.parse(Map.of("clusters", Map.of(
        "a", Map.of(),
        "b", Map.of("cluster", "b", "failoverTimeout", "2s"))));

    assertThat(parsed.getError()).isNull();
    ClusterManagerConfig config = (ClusterManagerConfig) parsed.getConfig();
    assertThat(config.clusters()).containsOnlyKeys("a", "b");
    assertThat(config.clusters().get("a")).isEqualTo(ClusterPolicyConfig.forCluster("a"));
    assertThat(config.clusters().get("b").failoverTimeout()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void noClusterAtAllIsValid() {
    ConfigOrError parsed = ClusterManagerConfigParser.parse(Map.of("clusters", Map.of()));

    assertThat(((ClusterManagerConfig) parsed.getConfig()).clusters()).isEmpty();
  }

  @Test
  void missingClustersIsInvalid() {
    assertInvalid(Map.of(), "jxds_cluster_manager config: \"clusters\" must be an object of xds_cluster configs"
        + " by cluster name, got nothing");
  }

  @Test
  void anEntryThatIsNotAnObjectIsInvalidNamingIt() {
    assertInvalid(Map.of("clusters", Map.of("a", List.of())),
        "jxds_cluster_manager config: \"clusters\".\"a\" must be an xds_cluster config object");
  }

  @Test
  void anEntryNamingAnotherClusterIsInvalid() {
    assertInvalid(Map.of("clusters", Map.of("a", Map.of("cluster", "b"))),
        "jxds_cluster_manager config: \"clusters\".\"a\".\"cluster\" must be \"a\" (the entry's name), got b");
  }

  @Test
  void aBadFieldOfAnEntryIsInvalidNamingTheEntryAndTheField() {
    assertInvalid(Map.of("clusters", Map.of("a", Map.of("failoverTimeout", 3.0))),
        "jxds_cluster_manager config: \"clusters\".\"a\": xds_cluster config: \"failoverTimeout\" must be a"
            + " duration string such as \"2s\", got number 3.0");
  }

  @Test
  void theRegisteredProviderParsesTheSameWay() {
    ConfigOrError parsed = new ClusterManagerLoadBalancerProvider()
        .parseLoadBalancingPolicyConfig(Map.of("clusters", Map.of("a", Map.of())));

    assertThat(parsed.getConfig()).isEqualTo(ClusterManagerConfig.of(List.of("a")));
    assertThat(io.grpc.LoadBalancerRegistry.getDefaultRegistry().getProvider("jxds_cluster_manager"))
        .isInstanceOf(ClusterManagerLoadBalancerProvider.class);
  }

  private static void assertInvalid(Map<String, ?> json, String message) {
    ConfigOrError parsed = ClusterManagerConfigParser.parse(json);
    assertThat(parsed.getError()).isNotNull();
    assertThat(parsed.getError().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(parsed.getError().getDescription()).isEqualTo(message);
  }
}
