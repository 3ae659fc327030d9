package io.jxds.balancer.internal.priority;

import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.locality;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.LoadBalancer.ResolvedAddresses;
import io.grpc.Status;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.TestRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The priority child follows the conventions of every layer (ARCHITECTURE.md, "The load-balancing
 * tree"); the other layers are checked by {@code LayerConventionsTest}.
 */
class PriorityChildBalancerTest {
  private final FakeLbHelper helper = new FakeLbHelper();
  private final PriorityChildBalancer balancer =
      new PriorityChildBalancer(helper, "c[child0]", TestRandom.seeded(1), TestRandom.seeded(2));
  private final ResolvedAddresses group = resolved(LocalityGroup.of(locality("a", 1, endpoint(1))));

  @Test
  void aConfigOfTheWrongTypeIsUnavailableAndChangesNothing() {
    helper.run(() -> balancer.acceptResolvedAddresses(group));
    int updates = helper.updates.size();
    Status[] status = new Status[1];

    helper.run(() -> status[0] = balancer.acceptResolvedAddresses(resolved("nonsense")));

    assertThat(status[0].getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status[0].getDescription()).contains("expected").contains("nonsense");
    assertThat(helper.updates).hasSize(updates);
    assertThat(helper.subchannels).hasSize(1);
  }

  @Test
  void everyEntryPointRefusesToRunOutsideTheSynchronizationContext() {
    helper.run(() -> balancer.acceptResolvedAddresses(group));

    assertOutside(() -> balancer.acceptResolvedAddresses(group));
    assertOutside(() -> balancer.handleNameResolutionError(Status.UNAVAILABLE.withDescription("dns")));
    assertOutside(balancer::requestConnection);
    assertOutside(balancer::shutdown);
    helper.run(balancer::shutdown);
  }

  private static ResolvedAddresses resolved(Object config) {
    return ResolvedAddresses.newBuilder().setAddresses(List.of()).setLoadBalancingPolicyConfig(config).build();
  }

  private static void assertOutside(Runnable call) {
    assertThatThrownBy(call::run).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("SynchronizationContext");
  }
}
