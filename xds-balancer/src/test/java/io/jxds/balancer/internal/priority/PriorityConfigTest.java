package io.jxds.balancer.internal.priority;

import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.locality;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jxds.balancer.internal.locality.LocalityConfig;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.testing.Endpoints;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PriorityConfigTest {
  private static final List<LocalityGroup> ONE = List.of(LocalityGroup.of(locality("a", 1, endpoint(1))));

  @Test
  void defaultsAreTenSecondsAndFifteenMinutes() {
    PriorityConfig config = PriorityConfig.of("c", ONE);
    assertThat(config.failoverTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.childRetention()).isEqualTo(Duration.ofMinutes(15));
  }

  @Test
  void rejectsBadValuesNamingTheField() {
    assertThatThrownBy(() -> new PriorityConfig("", ONE, Duration.ofSeconds(1), Duration.ZERO))
        .hasMessageContaining("clusterName");
    assertThatThrownBy(() -> new PriorityConfig("c", ONE, Duration.ZERO, Duration.ZERO))
        .hasMessageContaining("failoverTimeout");
    assertThatThrownBy(() -> new PriorityConfig("c", ONE, Duration.ofSeconds(1), Duration.ofSeconds(-1)))
        .hasMessageContaining("childRetention");
    assertThatThrownBy(() -> new LocalityConfig(Endpoints.zone("a"), 0, List.of()))
        .hasMessageContaining("locality weight");
    assertThatThrownBy(() -> new LocalityConfig(Endpoints.zone("a"), 1L << 32, List.of()))
        .hasMessageContaining("locality weight");
  }

  @Test
  void recordsCopyTheirLists() {
    List<LocalityGroup> priorities = new java.util.ArrayList<>(ONE);
    PriorityConfig config = PriorityConfig.of("c", priorities);
    priorities.clear();
    assertThat(config.priorities()).hasSize(1);
    assertThat(config.withPriorities(List.of()).failoverTimeout()).isEqualTo(config.failoverTimeout());
  }
}
