package io.jxds.examples;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.jxds.testing.FakeAdsServer;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The demo with everything on 127.0.0.1 in this JVM: a {@link FakeAdsServer} as control plane,
 * eight backends ({@link DemoControlPlane#LAYOUT}), and a client channel built from nothing but
 * {@code xds-cluster:///payments} and a bootstrap in the system property {@code
 * jxds.bootstrapConfig}. Everything it starts is stopped before {@link #run()} returns.
 */
final class EmbeddedDemo {
  static final String BOOTSTRAP_CONFIG_PROPERTY = "jxds.bootstrapConfig";
  static final String BOOTSTRAP_FILE_PROPERTY = "jxds.bootstrap";
  private static final int WORKERS = 8; // enough to hold the rate on a busy 2-core machine

  private final DemoOptions options;
  private final PrintStream out;

  EmbeddedDemo(DemoOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  /** Runs the whole script and prints the summary; the result says whether every step passed. */
  DemoScript.Result run() throws Exception {
    String cluster = options.cluster();
    FakeAdsServer ads = FakeAdsServer.loopback().start();
    String savedConfig = System.getProperty(BOOTSTRAP_CONFIG_PROPERTY);
    String savedFile = System.clearProperty(BOOTSTRAP_FILE_PROPERTY); // it would win over ours
    try (DemoBackends backends = new DemoBackends()) {
      DemoControlPlane.LAYOUT.forEach(l -> l.backends().forEach(backends::start));
      DemoControlPlane controlPlane = new DemoControlPlane(ads, cluster, backends);
      controlPlane.publish();
      // The pooled xDS client closes as soon as the channel is gone (retention 0 s).
      System.setProperty(BOOTSTRAP_CONFIG_PROPERTY,
          ads.bootstrap().nodeId("jxds-demo").jxdsOption("client_retention", "0s").build());
      out.printf("ADS 127.0.0.1:%d, 8 backends, channel xds-cluster:///%s, %d RPC/s%n",
          ads.port(), cluster, options.rate());
      ManagedChannel channel =
          Grpc.newChannelBuilder("xds-cluster:///" + cluster, InsecureChannelCredentials.create()).build();
      TrafficStats stats = new TrafficStats();
      Topology topology = controlPlane.topology();
      AtomicReference<String> step = new AtomicReference<>("");
      DemoScript.Result result;
      TrafficGenerator traffic =
          new TrafficGenerator(channel, DemoBackends.HEALTH_CHECK, stats, WORKERS, options.rate()).start();
      LiveTable table = new LiveTable(stats, () -> topology, step, out).start();
      try {
        awaitFirstAnswer(stats);
        printStatus();
        DemoScript script = new DemoScript(DemoScript.standard(controlPlane, backends, channel::resetConnectBackoff),
            stats, () -> topology, DemoScript.Timing.spread(options.duration(), 8), out, step);
        result = script.run();
        printStatus();
      } finally {
        table.close();
        traffic.close();
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      List<String> summary = DemoScript.summary(result);
      synchronized (out) {
        summary.forEach(out::println);
      }
      return result;
    } finally {
      ads.stop();
      restore(BOOTSTRAP_CONFIG_PROPERTY, savedConfig);
      restore(BOOTSTRAP_FILE_PROPERTY, savedFile);
    }
  }

  private void printStatus() throws Exception {
    if (options.status()) {
      CsdsStatus.print(out);
    }
  }

  private static void awaitFirstAnswer(TrafficStats stats) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (stats.snapshot().answered().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }

  static void restore(String property, String value) {
    if (value == null) {
      System.clearProperty(property);
    } else {
      System.setProperty(property, value);
    }
  }
}
