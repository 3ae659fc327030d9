package io.jxds.balancer.internal.dns;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ConnectivityState;
import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer.Helper;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.Status;
import io.jxds.api.model.LogicalDns;
import io.jxds.api.model.OutlierDetection;
import io.jxds.api.model.OutlierDetection.FailurePercentage;
import io.jxds.balancer.internal.outlier.CallCounter;
import io.jxds.balancer.internal.outlier.OutlierDetector;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.FakeLbHelper.FakeSubchannel;
import io.jxds.testing.TestRandom;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Outlier detection (gRFC A50) over a LOGICAL_DNS cluster's one endpoint, as grpc-java applies it:
 * the sick endpoint is ejected (its RPCs fail UNAVAILABLE) and let back after the ejection time;
 * a re-resolution to other addresses is a new endpoint to the detector (gRFC A61), and is used.
 * Fake clock; a scripted {@code dns} resolver.
 */
class LogicalDnsOutlierDetectionTest {
  private static final InetSocketAddress V4 = new InetSocketAddress("127.0.0.1", 8080);
  private static final InetSocketAddress V6 = new InetSocketAddress("::1", 8080);
  private static final OutlierDetection FAILURE_PERCENTAGE = new OutlierDetection(Duration.ofSeconds(10),
      Duration.ofSeconds(30), Duration.ofSeconds(300), 100, Optional.empty(),
      Optional.of(new FailurePercentage(50, 100, 1, 10)));

  private final FakeLbHelper fake = new FakeLbHelper();
  private final ScriptedDns dnsProvider = new ScriptedDns();
  private final OutlierDetector detector =
      new OutlierDetector("legacy", fake.getSynchronizationContext(), fake.clock, TestRandom.seeded(1));
  private LogicalDnsBalancer balancer;

  @BeforeEach
  void start() {
    Helper helper = dnsProvider.helperOver(fake);
    fake.run(() -> detector.configure(FAILURE_PERCENTAGE));
    balancer = new LogicalDnsBalancer(detector.helper(helper), "legacy", new LogicalDns("backend.example", 8080),
        detector);
    fake.run(balancer::start);
  }

  @Test
  void sickDnsEndpointIsEjectedAndComesBackAfterTheEjectionTime() {
    resolve(V4, V6);
    fake.subchannels.get(0).setState(ConnectivityState.READY);
    assertThat(detector.ejected()).isEmpty();

    rpcs(20, false);
    fake.forward(10, TimeUnit.SECONDS);

    assertThat(detector.ejected()).containsExactly(Set.of(V4, V6));
    assertThat(fake.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    Status status = fake.pick().getStatus();
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription())
        .contains("cluster legacy", "backend.example:8080", "ejected by outlier detection");
    assertThat(fake.subchannels.get(0).isShutdown()).as("its connection is kept").isFalse();

    fake.forward(40, TimeUnit.SECONDS); // the first sweep after 30 s lets it back

    assertThat(detector.ejected()).isEmpty();
    assertThat(fake.state()).isEqualTo(ConnectivityState.READY);
    assertThat(fake.pick().getStatus().isOk()).isTrue();
  }

  @Test
  void healthyDnsEndpointIsNotEjected() {
    resolve(V4);
    fake.subchannels.get(0).setState(ConnectivityState.READY);

    rpcs(20, true);
    fake.forward(10, TimeUnit.SECONDS);

    assertThat(detector.ejected()).isEmpty();
    assertThat(fake.state()).isEqualTo(ConnectivityState.READY);
  }

  @Test
  void reResolutionToOtherAddressesIsUsedAndCountedAsANewEndpoint() {
    resolve(V4);
    FakeSubchannel subchannel = fake.subchannels.get(0);
    subchannel.setState(ConnectivityState.READY);
    rpcs(20, false);
    fake.forward(10, TimeUnit.SECONDS);
    assertThat(detector.ejected()).containsExactly(Set.of(V4));

    resolve(V6); // the name now points elsewhere: a new endpoint (gRFC A61), not ejected

    assertThat(fake.subchannels).containsExactly(subchannel);
    assertThat(subchannel.getAllAddresses()).containsExactly(new EquivalentAddressGroup(List.of(V6)));
    assertThat(detector.ejected()).isEmpty();
    assertThat(fake.state()).isEqualTo(ConnectivityState.READY);
    rpcs(20, false); // its calls count for the new endpoint
    fake.forward(10, TimeUnit.SECONDS);
    assertThat(detector.ejected()).containsExactly(Set.of(V6));
  }

  /** {@code n} picks, each call ending OK or not, counted as the EDS layer's stream tracer does. */
  private void rpcs(int n, boolean ok) {
    for (int i = 0; i < n; i++) {
      PickResult pick = fake.pick();
      CallCounter calls = OutlierDetector.callCounter(pick.getSubchannel());
      assertThat(calls).as("the DNS endpoint's subchannel is tracked").isNotNull();
      calls.record(ok);
    }
  }

  private void resolve(SocketAddress... addresses) {
    List<EquivalentAddressGroup> groups = new ArrayList<>();
    for (SocketAddress address : addresses) {
      groups.add(new EquivalentAddressGroup(address)); // gRPC's DNS resolver: one group per address
    }
    fake.run(() -> dnsProvider.resolver.resolve(groups));
  }
}
