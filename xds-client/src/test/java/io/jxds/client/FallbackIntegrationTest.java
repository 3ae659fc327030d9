package io.jxds.client;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.client.TestTypes.TestCluster;
import io.jxds.client.internal.bootstrap.BootstrapParser;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.Poll;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * gRFC A71 with two real control planes (FakeAdsServer on loopback ports) named in one bootstrap:
 * the primary down at start, the primary coming back, the primary lost after data arrived.
 */
class FallbackIntegrationTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final FakeAdsServer primary = FakeAdsServer.loopback();
  private final FakeAdsServer fallback = FakeAdsServer.loopback();
  private DefaultXdsClient client;

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
    primary.stop();
    fallback.stop();
  }

  private static void await(String what, BooleanSupplier condition) {
    Poll.until(what, WAIT, condition);
  }

  private DefaultXdsClient client(boolean delta) throws Exception {
    String json = primary.bootstrap()
        .fallbackServer(fallback.serverUri())
        .serverFeatures(delta ? new String[] {"jxds.delta"} : new String[0])
        .build();
    return XdsClientBuilder.fromBootstrap(BootstrapParser.parse(json, "test")).build();
  }

  @ParameterizedTest(name = "delta={0}")
  @ValueSource(booleans = {false, true})
  void primaryDownAtStartThenBack(boolean delta) throws Exception {
    primary.start(); // binds the port the bootstrap names
    primary.stop();
    primary.setClusters(XdsResources.cluster("a").edsServiceName("from-primary").build());
    fallback.setClusters(XdsResources.cluster("a").edsServiceName("from-fallback").build());
    fallback.start();
    client = client(delta);

    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "a", a, Runnable::run);
    await("served by the fallback", () -> a.updates().size() == 1);
    assertThat(a.updates().get(0).edsServiceName()).isEqualTo("from-fallback");
    assertThat(a.errors()).as("the fallback answered: no error on the way").isEmpty();
    assertThat(fallback.streams().count()).isEqualTo(1);

    primary.start();
    await("back on the primary", () -> a.updates().size() == 2);
    assertThat(a.updates().get(1).edsServiceName()).isEqualTo("from-primary");
    fallback.streams().awaitCount(0, WAIT);
    assertThat(primary.streams().count()).isEqualTo(1);
    assertThat(client.status().connected()).isTrue();
  }

  @Test
  void primaryDownAfterDataArrivedKeepsTheCacheWithoutFallingBack() throws Exception {
    primary.setClusters(XdsResources.cluster("a").build());
    primary.start();
    fallback.setClusters(XdsResources.cluster("a").edsServiceName("from-fallback").build());
    fallback.start();
    client = client(false);
    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "a", a, Runnable::run);
    await("served by the primary", () -> a.updates().size() == 1);
    primary.requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);

    primary.stop();
    await("the client saw the primary go", () -> !client.status().connected());
    // The failure was handled when the status changed; everything watched is cached.
    assertThat(fallback.requests().all()).isEmpty();
    assertThat(fallback.streams().count()).isZero();
    RecordingWatcher<TestCluster> again = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "a", again, Runnable::run);
    await("cached value", () -> again.updates().size() == 1);
    assertThat(fallback.requests().all()).isEmpty();
    assertThat(a.events()).hasSize(1);
  }
}
