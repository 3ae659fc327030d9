package io.jxds.examples;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.stub.ClientCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.XdsResources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The README's quick-start snippet ({@link QuickStart}) routes real RPCs, and the README shows it verbatim. */
class QuickStartTest {
  private final FakeAdsServer ads = FakeAdsServer.loopback();
  private final DemoBackends backends = new DemoBackends();
  private ManagedChannel channel;

  @BeforeEach
  void setUp() {
    ads.start();
    backends.start("a");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "z", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", backends.port("a"), HEALTHY))
        .build());
    System.setProperty(EmbeddedDemo.BOOTSTRAP_CONFIG_PROPERTY,
        ads.bootstrap().jxdsOption("client_retention", "0s").build());
  }

  @AfterEach
  void tearDown() throws Exception {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    System.clearProperty(EmbeddedDemo.BOOTSTRAP_CONFIG_PROPERTY);
    backends.close();
    ads.stop();
  }

  @Test
  void xdsClusterTargetRoutesToTheControlPlanesEndpoint() {
    channel = QuickStart.paymentsChannel();

    assertThat(call(channel)).containsExactly(0x08, 0x01); // SERVING, from backend a
  }

  @Test
  void istioClusterNameRoutesThroughTheEncodedTarget() {
    String cluster = "outbound|8080||echo.default.svc.cluster.local";
    ads.putClusters(XdsResources.cluster(cluster).build());
    ads.putEndpoints(XdsResources.endpoints(cluster)
        .locality("r", "z", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", backends.port("a"), HEALTHY))
        .build());

    channel = QuickStart.echoChannel();

    assertThat(call(channel)).containsExactly(0x08, 0x01);
  }

  @Test
  void serviceConfigOnAnyTargetRoutesTheSame() {
    // The DNS resolver's address (a closed port) is ignored: the control plane decides.
    channel = QuickStart.paymentsChannel("dns:///127.0.0.1:9");

    assertThat(call(channel)).containsExactly(0x08, 0x01);
  }

  @Test
  void readmeShowsTheSnippetVerbatim() throws Exception {
    List<String> source = Files.readAllLines(Path.of("src/test/java/io/jxds/examples/QuickStart.java"));
    List<String> snippet = source.subList(source.indexOf("// README:begin") + 1, source.indexOf("// README:end"));
    String readme = Files.readString(Path.of("../README.md"));

    assertThat(readme).contains(String.join("\n", snippet));
  }

  private static byte[] call(ManagedChannel channel) {
    return ClientCalls.blockingUnaryCall(channel, DemoBackends.HEALTH_CHECK,
        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), new byte[0]);
  }
}
