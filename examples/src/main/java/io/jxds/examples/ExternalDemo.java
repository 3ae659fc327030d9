package io.jxds.examples;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.Locality;
import io.jxds.api.model.LocalityId;
import io.jxds.client.XdsClientPool;
import io.jxds.examples.Topology.EndpointInfo;
import io.jxds.examples.Topology.LocalityInfo;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The live table against an external control plane: the same client as the embedded demo (a
 * channel from {@code xds:///SERVICE} with {@code --listener SERVICE}, else from {@code
 * xds-cluster:///NAME}, and a bootstrap pointing at {@code --xds-server}), and a watch of the
 * cluster's endpoints, through the same pooled xDS client, to know which backend address is in
 * which locality and priority.
 *
 * <p>A cluster the control plane does not have (a misspelled {@code --cluster}) ends the demo as
 * soon as the client concludes so, at the latest after the bootstrap's {@code
 * jxds.resource_timeout} (5 s here, not the default 15 s: a person is waiting), saying so; the
 * demo then fails, as it does when no RPC reached a backend.
 */
final class ExternalDemo {
  private static final int WORKERS = 4;
  /** How long the demo's client waits for a cluster before concluding it does not exist. */
  static final Duration RESOURCE_TIMEOUT = Duration.ofSeconds(5);
  private static final String NODE_ID = "jxds-demo";

  private final DemoOptions options;
  private final PrintStream out;
  private final Duration resourceTimeout;
  private final AtomicReference<Topology> topology = new AtomicReference<>(Topology.EMPTY);
  /** Whether the control plane has the cluster: null until the client knows. */
  private final AtomicReference<Boolean> clusterExists = new AtomicReference<>();
  /** Released when the table should stop early: the cluster does not exist. */
  private final CountDownLatch stop = new CountDownLatch(1);

  ExternalDemo(DemoOptions options, PrintStream out) {
    this(options, out, RESOURCE_TIMEOUT);
  }

  ExternalDemo(DemoOptions options, PrintStream out, Duration resourceTimeout) {
    this.options = options;
    this.out = out;
    this.resourceTimeout = resourceTimeout;
  }

  /**
   * Shows the table for {@code --duration} seconds, or until the JVM is interrupted, or until the
   * cluster turns out not to exist.
   *
   * @return whether the demo ran its course: false when the cluster does not exist, or no RPC
   *     reached a backend; what went wrong is printed
   */
  boolean run() throws Exception {
    String server = options.xdsServer().orElseThrow();
    String cluster = options.cluster();
    String savedConfig = System.getProperty(EmbeddedDemo.BOOTSTRAP_CONFIG_PROPERTY);
    String savedFile = System.clearProperty(EmbeddedDemo.BOOTSTRAP_FILE_PROPERTY); // it would win over ours
    System.setProperty(EmbeddedDemo.BOOTSTRAP_CONFIG_PROPERTY, bootstrap(server, resourceTimeout));
    try {
      return showTable(server, cluster);
    } finally {
      EmbeddedDemo.restore(EmbeddedDemo.BOOTSTRAP_CONFIG_PROPERTY, savedConfig);
      EmbeddedDemo.restore(EmbeddedDemo.BOOTSTRAP_FILE_PROPERTY, savedFile);
    }
  }

  private boolean showTable(String server, String cluster) throws Exception {
    // With a listener, its routes choose each call's cluster: backends of other clusters show as
    // no locality's share.
    String target = options.listener().map(l -> "xds:///" + l).orElse("xds-cluster:///" + cluster);
    out.printf("ADS %s (insecure), channel %s, %d RPC/s%nCtrl-C stops%n", server, target, options.rate());
    Executor inline = Runnable::run; // watcher callbacks only swap an immutable snapshot
    try (XdsClientPool.Lease lease = XdsClientPool.shared().acquire()) {
      AtomicReference<WatchHandle> endpointsWatch = new AtomicReference<>();
      WatchHandle clusterWatch = lease.client().watchCluster(cluster, new Watcher<>() {
        @Override
        public void onResourceDoesNotExist(String resourceName) {
          // Never received: nothing will route, so stop and say why. Deleted later: the table
          // shows the failing RPCs until the end, which then says so.
          if (clusterExists.getAndSet(false) == null) {
            stop.countDown();
          }
        }

        @Override
        public void onUpdate(ClusterUpdate update) {
          clusterExists.set(true);
          WatchHandle old = endpointsWatch.getAndSet(
              lease.client().watchEndpoints(update.edsServiceName(), new Watcher<>() {
                @Override
                public void onUpdate(EndpointsUpdate endpoints) {
                  topology.set(topologyOf(endpoints));
                }
              }, inline));
          if (old != null) {
            old.cancel();
          }
        }
      }, inline);
      ManagedChannel channel = Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build();
      TrafficStats stats = new TrafficStats();
      TrafficGenerator traffic =
          new TrafficGenerator(channel, DemoBackends.HEALTH_CHECK, stats, WORKERS, options.rate()).start();
      LiveTable table = new LiveTable(stats, topology::get, new AtomicReference<>(""), out).start();
      try {
        if (options.status()) {
          // Status once the client has had a moment to hear from the control plane.
          new CountDownLatch(1).await(2, TimeUnit.SECONDS);
          printStatus();
        }
        long seconds = options.duration().toSeconds();
        stop.await(seconds == 0 ? Long.MAX_VALUE : seconds, TimeUnit.SECONDS);
        printStatus();
      } finally {
        table.close();
        traffic.close();
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        clusterWatch.cancel();
        WatchHandle e = endpointsWatch.get();
        if (e != null) {
          e.cancel();
        }
      }
      Status last = stats.lastFailure();
      if (last != null) {
        out.println("last failure: " + Expect.describe(last));
      }
      if (Boolean.FALSE.equals(clusterExists.get())) {
        out.printf("demo FAILED: cluster %s does not exist: the control plane at %s does not serve it to node "
            + "\"%s\"; check --cluster%n", cluster, server, NODE_ID);
        return false;
      }
      if (stats.snapshot().answered().isEmpty()) {
        out.printf("demo FAILED: no RPC reached a backend of cluster %s%n", cluster);
        return false;
      }
      return true;
    }
  }

  private void printStatus() throws Exception {
    if (options.status()) {
      CsdsStatus.print(out);
    }
  }

  /**
   * Localities by priority (stable within one), labelled by their most specific name part;
   * endpoints {@code a1, a2, ...} in the first locality, {@code b1, ...} in the second, and so on.
   */
  static Topology topologyOf(EndpointsUpdate endpoints) {
    List<Locality> sorted = new ArrayList<>(endpoints.localities());
    sorted.sort(Comparator.comparingInt(Locality::priority));
    List<LocalityInfo> localities = new ArrayList<>();
    for (int i = 0; i < sorted.size(); i++) {
      Locality l = sorted.get(i);
      String prefix = i < 26 ? String.valueOf((char) ('a' + i)) : "l" + i;
      List<EndpointInfo> infos = new ArrayList<>();
      int n = 1;
      for (Endpoint e : l.endpoints()) {
        infos.add(new EndpointInfo(prefix + n++,
            e.address().getAddress().getHostAddress() + ":" + e.address().getPort()));
      }
      localities.add(new LocalityInfo(label(l.id()), l.priority(), infos));
    }
    return new Topology(localities);
  }

  private static String label(LocalityId id) {
    if (!id.subZone().isEmpty()) {
      return id.subZone();
    }
    if (!id.zone().isEmpty()) {
      return id.zone();
    }
    return id.region().isEmpty() ? "(none)" : id.region();
  }

  private static String bootstrap(String server, Duration resourceTimeout) {
    return "{\"xds_servers\": [{\"server_uri\": \"" + server + "\", \"channel_creds\": [{\"type\": \"insecure\"}],"
        + " \"server_features\": []}], \"node\": {\"id\": \"" + NODE_ID + "\", \"cluster\": \"jxds-demo\"},"
        + " \"jxds\": {\"resource_timeout\": \"" + resourceTimeout.toMillis() + "ms\"}}";
  }

  /** Ignores absence and errors unless overridden: the table shows their effect on RPCs. */
  private abstract static class Watcher<T> implements ResourceWatcher<T> {
    @Override
    public void onResourceDoesNotExist(String resourceName) {}

    @Override
    public void onError(Status error) {}
  }
}
