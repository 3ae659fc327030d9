package io.jxds.balancer.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.ServerCalls;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
  private final AtomicBoolean sick = new AtomicBoolean(true);
  private Server sickServer;

  @AfterEach
  void stopSickServer() throws InterruptedException {
    if (sickServer != null) {
      sickServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void sickDnsEndpointIsEjectedAndServesAgainAfterItHeals() throws Exception {
    int port = startSickServer();
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

    sick.set(false);
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

  /** A backend that accepts connections and fails every RPC while {@link #sick}; its name: "healed". */
  private int startSickServer() throws Exception {
    ServerServiceDefinition service = ServerServiceDefinition.builder("jxds.testing.Backend")
        .addMethod(TestBackend.NAME_METHOD, ServerCalls.asyncUnaryCall((request, observer) -> {
          if (sick.get()) {
            observer.onError(Status.INTERNAL.withDescription("sick").asRuntimeException());
          } else {
            observer.onNext("healed".getBytes(StandardCharsets.UTF_8));
            observer.onCompleted();
          }
        }))
        .addMethod(TestBackend.HOLD_METHOD, ServerCalls.asyncServerStreamingCall((request, observer) ->
            observer.onError(Status.INTERNAL.asRuntimeException())))
        .build();
    sickServer = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
        .addService(service)
        .build()
        .start();
    return sickServer.getPort();
  }
}
