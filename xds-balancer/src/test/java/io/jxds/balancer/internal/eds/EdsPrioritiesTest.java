package io.jxds.balancer.internal.eds;

import static io.jxds.balancer.testing.Endpoints.endpoint;
import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.HealthStatus;
import io.jxds.api.model.Locality;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import io.jxds.balancer.testing.Endpoints;
import java.util.List;
import org.junit.jupiter.api.Test;

class EdsPrioritiesTest {
  @Test
  void prioritiesOfAnEdsUpdateDropUnusableLocalitiesAndEmptyPriorities() {
    EndpointsUpdate update = new EndpointsUpdate("eds", List.of(
        new Locality(Endpoints.zone("a"), 0, 1, List.of(endpoint(1, HealthStatus.UNHEALTHY))),
        new Locality(Endpoints.zone("b"), 1, 2, List.of(endpoint(2))),
        new Locality(Endpoints.zone("c"), 1, 3, List.of(endpoint(3, HealthStatus.DRAINING))),
        new Locality(Endpoints.zone("d"), 2, 4, List.of(endpoint(4)))),
        List.of(), EndpointsUpdate.DEFAULT_OVERPROVISIONING_FACTOR);

    List<LocalityGroup> priorities = EdsPriorities.of(update, EndpointPolicy.ROUND_ROBIN);

    assertThat(priorities).hasSize(2);
    assertThat(priorities.get(0).localities()).extracting(l -> l.id().zone()).containsExactly("b");
    assertThat(priorities.get(1).localities()).extracting(l -> l.id().zone()).containsExactly("d");
  }
}
