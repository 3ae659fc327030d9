package io.jxds.balancer.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.Poll;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Outlier detection (gRFC A50) on a LOGICAL_DNS cluster (gRFC A37), as grpc-java applies it: the
 * cluster's one endpoint, a real backend that accepts connections and fails every RPC, is ejected
 * (RPCs then fail UNAVAILABLE saying so, without reaching it) and serves again once healed.
 */
class LogicalDnsOutlierDetectionEndToEndTest {
  private static final Duration INTERVAL = Duration.ofSeconds(1);

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private SickBackend sickBackend;

  @AfterEach
  void stopSickBackend() throws InterruptedException {
    if (sickBackend != null) {
      sickBackend.close();
    }
  }

  @Test
  void sickDnsEndpointIsEjectedAndServesAgainAfterItHeals() throws Exception {
    sickBackend = new SickBackend();
    int port = sickBackend.port();
    bed.ads().setClusters(XdsResources.cluster("legacy").logicalDns("127.0.0.1", port)
        .failurePercentageEjection(INTERVAL, Duration.ofSeconds(2), 50, 1, 5, 100)
        .build());
    ManagedChannel channel = bed.newChannel("legacy");
    AtomicReference<Status> last = new AtomicReference<>();
    Poll.until(() -> "the sick backend's own failure; last: " + last.get(), Poll.DEFAULT_TIMEOUT,
        () -> "sick".equals(record(last, BackendCalls.failure(channel)).getDescription())); // served, failing

    Poll.until(() -> "an RPC failing UNAVAILABLE because the endpoint is ejected; last: " + last.get(),
        INTERVAL.multipliedBy(10), () -> ejected(last, BackendCalls.failure(channel)));
    assertThat(last.get().getDescription()).contains("cluster legacy", "127.0.0.1:" + port);

    sickBackend.sick.set(false);
    BackendCalls.awaitCalls(channel, 5, Duration.ofSeconds(15), w -> w.getOrDefault("healed", 0) == 5);
  }

  private static Status record(AtomicReference<Status> last, Status status) {
    last.set(status);
    return status;
  }

  private static boolean ejected(AtomicReference<Status> last, Status status) {
    last.set(status);
    return status.getCode() == Status.Code.UNAVAILABLE && status.getDescription() != null
        && status.getDescription().contains("ejected by outlier detection");
  }
}
