package io.jxds.api.model.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jxds.api.model.HttpFilter;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.RouteConfigurationUpdate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RouteModelTest {
  @Test
  void runtimeFractionMatchesDrawsBelowItsNumerator() {
    RuntimeFraction tenPercent = new RuntimeFraction(10, 100);
    assertThat(tenPercent.matches(0)).isTrue();
    assertThat(tenPercent.matches(9)).isTrue();
    assertThat(tenPercent.matches(10)).isFalse();
    assertThat(new RuntimeFraction(0, 100).matches(0)).isFalse();
    assertThat(new RuntimeFraction(0xFFFF_FFFFL, 1_000_000).matches(999_999)).isTrue();
  }

  @Test
  void runtimeFractionChecksItsDenominator() {
    assertThatThrownBy(() -> new RuntimeFraction(1, 1000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("denominator must be 100, 10000 or 1000000, got 1000");
    assertThatThrownBy(() -> new RuntimeFraction(-1, 100)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void weightedClustersSumTheirWeights() {
    RouteAction.WeightedClusters w = new RouteAction.WeightedClusters(
        List.of(new ClusterWeight("a", 90), new ClusterWeight("b", 10), new ClusterWeight("c", 0)));
    assertThat(w.totalWeight()).isEqualTo(100);
    assertThat(w.clusterNames()).containsExactly("a", "b", "c");
  }

  @Test
  void weightedClustersRefuseATotalOfZeroOrOverUint32() {
    assertThatThrownBy(() -> new RouteAction.WeightedClusters(List.of(new ClusterWeight("a", 0))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("weights must sum to [1, 2^32-1], got 0");
    assertThatThrownBy(() -> new RouteAction.WeightedClusters(
        List.of(new ClusterWeight("a", 0xFFFF_FFFFL), new ClusterWeight("b", 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("weights must sum to [1, 2^32-1], got 4294967296");
    assertThatThrownBy(() -> new RouteAction.WeightedClusters(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void clusterNamesAreDistinctAndInOrder() {
    assertThat(new RouteAction.WeightedClusters(
        List.of(new ClusterWeight("b", 1), new ClusterWeight("a", 1), new ClusterWeight("b", 2))).clusterNames())
        .containsExactly("b", "a");
    assertThat(new RouteAction.Cluster("a").clusterNames()).containsExactly("a");
    assertThat(new RouteAction.NotForwarded("redirect").clusterNames()).isEmpty();
  }

  @Test
  void listenerHasExactlyOneRouteSource() {
    RouteConfigurationUpdate routes = new RouteConfigurationUpdate("", List.of());
    assertThat(ListenerUpdate.rds("l", "r").rdsName()).contains("r");
    assertThat(ListenerUpdate.inline("l", routes).inlineRouteConfiguration()).contains(routes);
    assertThatThrownBy(() -> new ListenerUpdate("l", Optional.of("r"), Optional.of(routes),
        List.of(HttpFilter.router()), Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ListenerUpdate("l", Optional.empty(), Optional.empty(),
        List.of(HttpFilter.router()), Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void listenerEndsWithTheRouterAndHasAPositiveTimeout() {
    HttpFilter fault = new HttpFilter("fault", HttpFilter.FAULT_TYPE_URL, false);
    assertThatThrownBy(() -> new ListenerUpdate("l", Optional.of("r"), Optional.empty(),
        List.of(HttpFilter.router(), fault), Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ListenerUpdate("l", Optional.of("r"), Optional.empty(),
        List.of(HttpFilter.router()), Optional.of(Duration.ZERO)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new ListenerUpdate("l", Optional.of("r"), Optional.empty(),
        List.of(fault, HttpFilter.router()), Optional.of(Duration.ofSeconds(3))).httpFilters())
        .containsExactly(fault, HttpFilter.router());
  }

  @Test
  void valuesAreImmutable() {
    List<Route> routes = new java.util.ArrayList<>();
    VirtualHost host = new VirtualHost("vh", List.of("a"), routes);
    routes.add(new Route("r", RouteMatch.path(new StringMatcher.Prefix("", false)), new RouteAction.Cluster("c")));
    assertThat(host.routes()).isEmpty();
    assertThatThrownBy(() -> host.domains().add("b")).isInstanceOf(UnsupportedOperationException.class);
  }
}
