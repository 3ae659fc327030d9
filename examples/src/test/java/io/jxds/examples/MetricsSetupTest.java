package io.jxds.examples;

import io.grpc.InsecureChannelCredentials;
import io.jxds.api.WatchHandle;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientPool;
import io.jxds.testing.InMemoryMetrics;
import io.jxds.testing.Poll;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Clients made as docs/operating.md shows ({@link MetricsSetup}) record into the OpenTelemetry given. */
class MetricsSetupTest {
  @RegisterExtension final XdsTestBed bed = new XdsTestBed(); // the pool's bootstrap, per test
  private static final String VALID_UPDATES = "grpc.xds_client.resource_updates_valid";
  private final InMemoryMetrics metrics = new InMemoryMetrics();

  @BeforeEach
  void serveCluster() {
    bed.ads().setClusters(XdsResources.cluster("payments").build());
  }

  @Test
  void clientOfYourOwnRecordsIntoItsOpenTelemetry() throws Exception {
    FutureWatcher<ClusterUpdate> watcher = new FutureWatcher<>();

    try (DefaultXdsClient client =
        MetricsSetup.client(bed.ads().serverUri(), InsecureChannelCredentials.create(), metrics.openTelemetry())) {
      client.watchCluster("payments", watcher, Runnable::run);
      watcher.value.get(10, TimeUnit.SECONDS);

      awaitOneValidUpdate();
    }
  }

  @Test
  void pooledClientsRecordIntoTheirPoolsOpenTelemetry() throws Exception {
    FutureWatcher<ClusterUpdate> watcher = new FutureWatcher<>();

    try (XdsClientPool.Lease lease = MetricsSetup.pool(metrics.openTelemetry()).acquire()) {
      WatchHandle handle = lease.watchCluster("payments", watcher, Runnable::run);
      watcher.value.get(10, TimeUnit.SECONDS);

      awaitOneValidUpdate();
      handle.cancel();
    }
  }

  private void awaitOneValidUpdate() {
    Poll.until(() -> "one valid resource update counted, got " + metrics.points(VALID_UPDATES),
        Poll.DEFAULT_TIMEOUT, () -> validUpdates() == 1);
  }

  private long validUpdates() {
    return metrics.points(VALID_UPDATES).values().stream().mapToLong(Long::longValue).sum();
  }
}
