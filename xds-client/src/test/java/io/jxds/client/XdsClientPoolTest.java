package io.jxds.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jxds.api.XdsClient;
import io.jxds.client.bootstrap.BootstrapException;
import io.jxds.client.bootstrap.BootstrapLoader;
import io.jxds.testing.FakeClock;
import io.jxds.testing.TestRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Sharing and retention without a network (no watch, so no stream is opened). */
class XdsClientPoolTest {
  private final FakeClock clock = new FakeClock();
  private final Map<String, String> env = new HashMap<>();
  private final XdsClientPool pool =
      new XdsClientPool(new BootstrapLoader(k -> null, env::get), clock, clock.clock(), TestRandom.seeded(1));

  private void bootstrap(String nodeId, String jxds) {
    env.put(
        "GRPC_XDS_BOOTSTRAP_CONFIG",
        "{\"xds_servers\":[{\"server_uri\":\"127.0.0.1:1\",\"channel_creds\":[{\"type\":\"insecure\"}]}],"
            + "\"node\":{\"id\":\""
            + nodeId
            + "\"}"
            + (jxds == null ? "" : ",\"jxds\":" + jxds)
            + "}");
  }

  @Test
  void sameBootstrapSharesOneClient() throws Exception {
    bootstrap("a", null);
    XdsClientPool.Lease first = pool.acquire();
    XdsClientPool.Lease second = pool.acquire();
    assertThat(second.client()).isSameAs(first.client());
    bootstrap("b", null);
    XdsClientPool.Lease other = pool.acquire();
    assertThat(other.client()).isNotSameAs(first.client());
    assertThat(pool.size()).isEqualTo(2);
    first.close();
    second.close();
    other.close();
  }

  @Test
  void clientIsClosedOnlyAfterTheCountHasBeenZeroForTheRetention() throws Exception {
    bootstrap("a", null);
    XdsClientPool.Lease first = pool.acquire();
    XdsClientPool.Lease second = pool.acquire();
    DefaultXdsClient client = (DefaultXdsClient) first.client();
    first.close();
    first.close(); // idempotent: does not release the second lease's count
    clock.forwardTime(10, TimeUnit.MINUTES);
    assertThat(client.isClosed()).isFalse();

    second.close();
    clock.forwardTime(4, TimeUnit.MINUTES);
    assertThat(client.isClosed()).isFalse();
    XdsClientPool.Lease again = pool.acquire(); // within retention: the same client
    assertThat(again.client()).isSameAs(client);
    again.close();
    clock.forwardTime(4, TimeUnit.MINUTES);
    assertThat(client.isClosed()).isFalse(); // the retention restarted at the last release
    clock.forwardTime(1, TimeUnit.MINUTES);
    assertThat(client.isClosed()).isTrue();
    assertThat(pool.size()).isZero();

    XdsClientPool.Lease fresh = pool.acquire();
    assertThat(fresh.client()).isNotSameAs(client);
    fresh.close();
  }

  @Test
  void zeroRetentionClosesAtOnce() throws Exception {
    bootstrap("a", "{\"client_retention\":\"0s\"}");
    XdsClientPool.Lease lease = pool.acquire();
    DefaultXdsClient client = (DefaultXdsClient) lease.client();
    lease.close();
    assertThat(client.isClosed()).isTrue();
    assertThat(pool.size()).isZero();
  }

  @Test
  void closingThePooledClientItselfIsRefusedAndLeavesItOpenForOtherLeases() throws Exception {
    bootstrap("a", "{\"client_retention\":\"0s\"}");
    XdsClientPool.Lease lease = pool.acquire();
    XdsClient shared = lease.client();

    assertThatThrownBy(shared::close)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("XdsClientPool.Lease");
    assertThat(((DefaultXdsClient) shared).isClosed()).isFalse();
    assertThat(pool.size()).isEqualTo(1);

    lease.close(); // the last lease: with zero retention the pool closes the client
    assertThat(((DefaultXdsClient) shared).isClosed()).isTrue();
  }

  @Test
  void theLeaseIsAnXdsClientThatReleasesOnCloseAndRefusesWatchesAfter() throws Exception {
    bootstrap("a", "{\"client_retention\":\"0s\"}");
    DefaultXdsClient shared;
    XdsClient leased;
    try (XdsClientPool.Lease lease = pool.acquire()) {
      leased = lease;
      shared = (DefaultXdsClient) lease.client();
      assertThat(lease.status().nodeId()).isEqualTo("a");
    }

    assertThat(shared.isClosed()).isTrue();
    assertThatThrownBy(() -> leased.watch(TestTypes.CLUSTER, "c", new RecordingWatcher<>(), Runnable::run))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Lease is closed");
  }

  @Test
  void bootstrapErrorsReachTheCaller() {
    assertThatThrownBy(pool::acquire).isInstanceOf(BootstrapException.class);
  }
}
