package io.jxds.examples;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.XdsResources;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code --xds-server HOST:PORT --cluster NAME [--listener SERVICE]}: the live table against a
 * control plane the demo does not own.
 */
class ExternalDemoTest {
  @Test
  void tableShowsTheExternalControlPlanesLocalities() throws Exception {
    FakeAdsServer ads = FakeAdsServer.loopback().start();
    try (DemoBackends backends = new DemoBackends()) {
      backends.start("x");
      backends.start("y");
      ads.setClusters(XdsResources.cluster("orders").edsServiceName("orders-eds").build());
      ads.setEndpoints(XdsResources.endpoints("orders-eds")
          .locality("eu", "west-1", "", l -> l.priority(0).weight(3).endpoint("127.0.0.1", backends.port("x"), HEALTHY))
          .locality("eu", "west-2", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", backends.port("y"), HEALTHY))
          .build());
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();

      boolean ranItsCourse = new ExternalDemo(
          DemoOptions.parse("--xds-server", ads.serverUri(), "--cluster", "orders", "--duration", "4"),
          new PrintStream(bytes, true, StandardCharsets.UTF_8)).run();

      List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
      assertThat(lines).anySatisfy(l -> assertThat(l).contains("p0 west-1").contains("p0 west-2"));
      // Rows once traffic flows: 75 % to west-1, 25 % to west-2, nothing failed.
      assertThat(lines).anySatisfy(l -> assertThat(l)
          .matches("\\s+\\d+s\\s+7[4-6]\\s+7[4-6]\\s+2[4-6]\\s+2[4-6]\\s+\\d+\\s+0\\.0\\s+0\\.0"));
      assertThat(System.getProperty(EmbeddedDemo.BOOTSTRAP_CONFIG_PROPERTY)).isNull();
      assertThat(ranItsCourse).isTrue();
    } finally {
      ads.stop();
    }
  }

  @Test
  void listenerFlagRoutesThroughTheListenersRoutes() throws Exception {
    FakeAdsServer ads = FakeAdsServer.loopback().start();
    try (DemoBackends backends = new DemoBackends()) {
      backends.start("x");
      backends.start("y");
      // Service "shop": its routes send every call to cluster "orders", whose endpoints split 3:1.
      ads.setListeners(XdsResources.listener("shop").rdsRouteConfig("shop-routes").build());
      ads.setRoutes(XdsResources.route("shop-routes").virtualHost("shop", List.of("shop"), "orders").build());
      ads.setClusters(XdsResources.cluster("orders").build());
      ads.setEndpoints(XdsResources.endpoints("orders")
          .locality("eu", "west-1", "", l -> l.priority(0).weight(3).endpoint("127.0.0.1", backends.port("x"), HEALTHY))
          .locality("eu", "west-2", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", backends.port("y"), HEALTHY))
          .build());
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();

      boolean ranItsCourse = new ExternalDemo(DemoOptions.parse("--xds-server", ads.serverUri(), "--listener", "shop",
          "--cluster", "orders", "--duration", "4"), new PrintStream(bytes, true, StandardCharsets.UTF_8)).run();

      List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
      assertThat(lines).anySatisfy(l -> assertThat(l).contains("channel xds:///shop"));
      assertThat(lines).anySatisfy(l -> assertThat(l)
          .matches("\\s+\\d+s\\s+7[4-6]\\s+7[4-6]\\s+2[4-6]\\s+2[4-6]\\s+\\d+\\s+0\\.0\\s+0\\.0"));
      assertThat(ranItsCourse).isTrue();
    } finally {
      ads.stop();
    }
  }

  @Test
  void misspelledClusterStopsTheDemoSayingItDoesNotExist() throws Exception {
    FakeAdsServer ads = FakeAdsServer.loopback().start();
    try {
      ads.setClusters(XdsResources.cluster("orders").build());
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();

      long start = System.nanoTime();

      // A short resource timeout, so that this holds whether or not the client concludes absence
      // from the response at once; --duration 60 shows that the demo stops as soon as it knows.
      boolean ranItsCourse = new ExternalDemo(
          DemoOptions.parse("--xds-server", ads.serverUri(), "--cluster", "ordrs", "--duration", "60"),
          new PrintStream(bytes, true, StandardCharsets.UTF_8), Duration.ofSeconds(1)).run();

      assertThat(ranItsCourse).as("the demo fails (exit code 1)").isFalse();
      assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("demo FAILED: cluster ordrs does not exist: the "
          + "control plane at " + ads.serverUri() + " does not serve it to node \"jxds-demo\"; check --cluster");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).as("stopped early").isLessThan(Duration.ofSeconds(30));
    } finally {
      ads.stop();
    }
  }
}
