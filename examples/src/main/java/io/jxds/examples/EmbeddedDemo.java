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
 * eight backends of the cluster ({@link DemoControlPlane#LAYOUT}) and two of its canary, and a
 * client channel built from nothing but {@code xds:///payments} and a bootstrap in the system
 * property {@code jxds.bootstrapConfig}: the listener {@code payments}, its route configuration, the
 * clusters and their endpoints come from the control plane. Everything it starts is stopped before
 * {@link #run()} returns.
 */
final class EmbeddedDemo {
  static final String BOOTSTRAP_CONFIG_PROPERTY = "jxds.bootstrapConfig";
  static final String BOOTSTRAP_FILE_PROPERTY = "jxds.bootstrap";
  static final int WORKERS = 8; // enough to hold the rate on a busy 2-core machine
  /** The workers that send the canary header ({@link DemoControlPlane#CANARY_HEADER}). */
  private static final TrafficGenerator.Tag CANARY_TAG =
      new TrafficGenerator.Tag(DemoControlPlane.CANARY_HEADER, DemoControlPlane.CANARY_HEADER_VALUE, 1);

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
      DemoControlPlane.CANARY_LAYOUT.backends().forEach(backends::start);
      DemoControlPlane controlPlane = new DemoControlPlane(ads, cluster, backends);
      controlPlane.publish();
      // The pooled xDS client closes as soon as the channel is gone (retention 0 s).
      System.setProperty(BOOTSTRAP_CONFIG_PROPERTY,
          ads.bootstrap().nodeId("jxds-demo").jxdsOption("client_retention", "0s").build());
      out.printf("ADS 127.0.0.1:%d, 10 backends, channel xds:///%s, %d RPC/s%n",
          ads.port(), cluster, options.rate());
      // The target names the listener; its routes name the clusters.
      ManagedChannel channel =
          Grpc.newChannelBuilder("xds:///" + cluster, InsecureChannelCredentials.create()).build();
      TrafficStats stats = new TrafficStats();
      AtomicReference<Topology> topology = new AtomicReference<>(controlPlane.topology());
      AtomicReference<String> step = new AtomicReference<>("");
      DemoScript.Result result;
      TrafficGenerator traffic = new TrafficGenerator(channel, DemoBackends.HEALTH_CHECK, stats, WORKERS,
          options.rate(), CANARY_TAG).start();
      LiveTable table = new LiveTable(stats, topology::get, step, out).start();
      try {
        awaitFirstAnswer(stats);
        printStatus();
        DemoScript.Timing timing = DemoScript.Timing.spread(options.duration(), DemoScript.STANDARD_STEPS);
        List<DemoScript.Step> steps =
            DemoScript.standard(controlPlane, backends, timing, channel::resetConnectBackoff, topology::set);
        DemoScript script = new DemoScript(steps, stats, topology::get, timing, out, step);
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
