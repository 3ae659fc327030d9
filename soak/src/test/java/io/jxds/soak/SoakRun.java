package io.jxds.soak;

import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.MetadataUtils;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceStatus;
import io.jxds.api.XdsClient;
import io.jxds.api.XdsClientStatus;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.client.XdsClientPool;
import io.jxds.testing.FakeAdsServer;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One soak run: 24 backends, 6 clusters, up to 9 channels on {@code xds-cluster:///NAME} sharing
 * one pooled XdsClient (some find it through the bootstrap in {@code jxds.bootstrapConfig}, the
 * others get it through {@link XdsClusterPolicy#XDS_CLIENT_ARG}), a steady RPC load, and a seeded
 * sequence of operations, each followed by a bounded wait for every invariant to hold (see
 * {@link SoakTest} for the invariants and their bounds).
 */
final class SoakRun implements AutoCloseable {
  /** The operations a run does at least, whatever its duration (unless capped by maxOps). */
  static final int MIN_OPS = 16;

  private static final Logger log = LoggerFactory.getLogger(SoakRun.class);
  static final String BOOTSTRAP_PROPERTY = "jxds.bootstrapConfig";

  /** RPCs per channel in the quick routing check, and in the share check. */
  static final int QUICK_SAMPLE = 25;
  static final int SHARE_SAMPLE = 200;
  /**
   * A backend's share of a channel's non-dropped RPCs may differ from locality weight × endpoint
   * weight (normalized) by at most 6 percentage points over {@value #SHARE_SAMPLE} RPCs. The load
   * picks on one thread and jxds picks by smooth weighted round robin, which over any run of
   * consecutive picks is within about one pick per locality and per endpoint of the exact share,
   * plus one more per picker rebuild (a new picker starts at a random position): about 1.5 points
   * here, a quarter of the bound. A picker that ignores a weight (weights are 1..4) misses by 10
   * points or more in most configurations. (A weighted random picker, as grpc-java's, would need
   * a wider bound: binomial σ is up to 3.5 points at 200 RPCs.)
   */
  static final double SHARE_BOUND = 0.06;
  /** Converge bounds: most operations; a control-plane start (reconnect backoff, plus a deletion
   *  postponed to the 15 s does-not-exist timer after a first response); a recycle window. */
  static final Duration CONVERGE = Duration.ofSeconds(15);
  static final Duration CONVERGE_AFTER_START = Duration.ofSeconds(30);
  static final Duration CONVERGE_AFTER_RECYCLE = Duration.ofSeconds(20);
  /**
   * A channel opened on a cluster the client retained but the control plane deleted while nobody
   * watched it: the client concludes the deletion when the 15 s does-not-exist timer of the
   * re-subscription expires (a response sent before the server saw the request proves nothing).
   */
  static final Duration CONVERGE_AFTER_OPEN = Duration.ofSeconds(20);
  /** The initial channels: the JVM is still loading classes and compiling, on a busy machine. */
  static final Duration CONVERGE_SETUP = Duration.ofSeconds(30);
  /** A resource unwatched for less than this is still cached (jxds client_retention is 5 min). */
  static final long CACHED_NANOS = TimeUnit.MINUTES.toNanos(4);

  private final SoakConfig config;
  private final SoakReport report = new SoakReport();
  private final List<String> trace = new ArrayList<>();
  private final Excuses excuses = new Excuses();
  private final Ejections ejections = new Ejections(report.sickLastHitMillis);
  private final Queue<String> violations = new ConcurrentLinkedQueue<>();
  private final Map<Integer, SoakChannel> channels = new LinkedHashMap<>();
  private final Map<String, Long> lastWatched = new HashMap<>();
  private final Map<String, String> badSentAt = new HashMap<>();
  private Set<String> watchedAtStop = Set.of();

  private SoakModel model;
  private OpGenerator generator;
  private SoakBackends backends;
  private SoakControlPlane controlPlane;
  private XdsClientPool.Lease lease;
  private XdsClient client;
  private ExecutorService callbacks;
  private RpcLoad load;
  private String previousBootstrap;
  private long runStart;
  private long stopNanos;
  private int stopDownMillis;
  private volatile int opNumber;
  private long lastThreadSample = Long.MIN_VALUE;
  private long lastHeapSample = Long.MIN_VALUE;
  private long lastProgress;
  /** When the initial channels had converged: growth is measured from there. */
  private long setupEndMillis;

  SoakRun(SoakConfig config) {
    this.config = config;
  }

  SoakReport report() {
    return report;
  }

  /** Runs to the end; a broken invariant throws {@link SoakViolation} after printing seed, op and trace. */
  SoakReport run() throws Exception {
    try {
      runUnchecked();
      System.out.println(report.render(config, setupEndMillis));
      return report;
    } catch (SoakViolation | RuntimeException e) {
      report.elapsedMillis = elapsedMillis();
      if (controlPlane != null) {
        report.streamsOpened = controlPlane.streamsOpened();
      }
      StringBuilder s = new StringBuilder();
      s.append("\n==== SOAK VIOLATION: mode ").append(config.mode()).append(", seed ").append(config.seed())
          .append(", at operation #").append(opNumber).append(" ====\n").append(e.getMessage()).append('\n');
      s.append("replay: ").append(config.replayCommand(opNumber)).append('\n');
      s.append("trace (").append(trace.size()).append(" operations):\n");
      for (String line : trace) {
        s.append("  ").append(line).append('\n');
      }
      if (model != null) {
        s.append("model now:\n");
        for (ClusterModel c : model.clusters) {
          s.append("  ").append(c.describe()).append('\n');
        }
        s.append("  dead backends: ");
        for (int b = 0; b < model.alive.length; b++) {
          s.append(model.alive[b] ? "" : "b" + b + " ");
        }
        s.append('\n');
      }
      s.append(report.render(config, setupEndMillis));
      System.out.println(s);
      log.error("soak violation{}", s);
      throw e;
    }
  }

  private void runUnchecked() throws Exception {
    runStart = System.nanoTime();
    Random random = new Random(config.seed());
    model = new SoakModel(SoakConfig.CLUSTERS, SoakConfig.BACKENDS, random);
    generator = new OpGenerator(random, model, config.mode(), config.skip());
    backends = new SoakBackends(SoakConfig.BACKENDS + SoakConfig.DNS_BACKENDS);
    controlPlane = config.mode() == SoakConfig.Mode.JCP ? new JcpControlPlane() : new FakeControlPlane();
    controlPlane.publish(model.clusters, model.routes, ports(), false);
    previousBootstrap = System.getProperty(BOOTSTRAP_PROPERTY);
    System.setProperty(BOOTSTRAP_PROPERTY, bootstrap());
    lease = XdsClientPool.shared().acquire();
    client = lease.client();
    callbacks = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "soak-rpc-callbacks");
      t.setDaemon(true);
      return t;
    });
    load = new RpcLoad(this::onRpc);
    sampleResources(true);

    // Setup, part of the trace: one channel per cluster, two more sharing clusters c0 and c1.
    // While the JVM warms up (class loading, JIT, on a busy machine), every cluster is excused.
    List<Excuses.Window> warmUp = new ArrayList<>();
    for (ClusterModel c : model.clusters) {
      warmUp.add(excuses.open(c.name, System.nanoTime()));
    }
    for (RouteModel.ListenerModel l : model.routes.listeners) {
      warmUp.add(excuses.open(listenerKey(l.name), System.nanoTime()));
    }
    for (int i = 0; i < SoakConfig.CLUSTERS; i++) {
      step(new Op.OpenChannel(model.nextChannelId, "c" + i, i % 3 == 0));
    }
    step(new Op.OpenRoutedChannel(model.nextChannelId, "svc0", "a", true));
    step(new Op.OpenRoutedChannel(model.nextChannelId, "svc1", "b", false));
    step(new Op.OpenChannel(model.nextChannelId, SoakModel.AGGREGATE, false));
    setupEndMillis = elapsedMillis();
    for (Excuses.Window w : warmUp) {
      w.end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
    }
    sampleResources(true);

    long end = runStart + config.duration().toNanos();
    // The run ends by itself: bounded in operations and time; an outage in progress is finished
    // (at most two more operations, then the start). Each operation waits for the client to
    // converge, which takes longer on a loaded machine, so a short run goes on past its time until
    // it has done MIN_OPS operations: what it checks does not shrink with the machine's speed.
    while ((opNumber < config.maxOps() && (System.nanoTime() < end || report.ops < MIN_OPS))
        || !model.controlPlaneUp) {
      step(generator.next());
    }
    report.elapsedMillis = elapsedMillis();
    sampleResources(true);
    report.streamsOpened = controlPlane.streamsOpened();
    report.stickySamples = model.stickySamples;
    report.retryGuards = model.retryGuards;
    checkGrowth();
  }

  private IntUnaryOperator ports() {
    return backends::port;
  }

  private String bootstrap() {
    String nodeId = "soak-" + config.mode().name().toLowerCase() + "-" + config.seed() + "-" + Long.toHexString(System
        .nanoTime());
    return "{\"xds_servers\": [{\"server_uri\": \"" + controlPlane.serverUri()
        + "\", \"channel_creds\": [{\"type\": \"insecure\"}], \"server_features\": ["
        + (config.delta() ? "\"jxds.delta\"" : "") + "]}],"
        + " \"node\": {\"id\": \"" + nodeId + "\", \"cluster\": \"jxds-soak\"}}";
  }

  private long elapsedMillis() {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - runStart);
  }

  // ------------------------------------------------------------------ one operation

  private void step(Op op) throws Exception {
    opNumber++;
    String line = "#" + opNumber + " " + op.describe();
    trace.add(line);
    log.info("soak op {}", line);
    report.ops++;
    report.opsByKind.merge(OpGenerator.kind(op), 1, Integer::sum);
    long streamsBefore = controlPlane.streamsOpened();
    List<Excuses.Window> windows = new ArrayList<>();
    for (SoakChannel ch : channels.values()) {
      ch.retryGuard = null; // set again by a kill, for that kill only
    }
    Duration bound = apply(op, windows);
    if (setupEndMillis == 0) {
      bound = CONVERGE_SETUP;
    }
    long applied = System.nanoTime();
    converge(op, applied, bound);
    if (op instanceof Op.KillBackend || op instanceof Op.RestartBackend || op instanceof Op.SickBackend) {
      // Connections and ejections settle after convergence: a hash key may move back meanwhile.
      model.stickyUnsettledUntil = System.nanoTime() + ClusterModel.OD_MAX_EJECTION.toNanos()
          + TimeUnit.SECONDS.toNanos(2);
    }
    long graceEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
    for (Excuses.Window w : windows) {
      w.end = graceEnd;
    }
    long opened = controlPlane.streamsOpened() - streamsBefore;
    long allowed = op instanceof Op.StartControlPlane || op instanceof Op.BreakStreams ? 3
        : op instanceof Op.Recycle ? Long.MAX_VALUE : 1;
    if (opened > allowed) {
      throw new SoakViolation(line + ": " + opened + " ADS streams opened during the operation, at most "
          + allowed + " expected");
    }
    sampleResources(false);
    progress();
  }

  private Duration apply(Op op, List<Excuses.Window> windows) throws Exception {
    long now = System.nanoTime();
    if (op instanceof Op.ConfigOp c) {
      windows.add(excuses.open(c.cluster(), now));
      model.apply(op);
      if (op instanceof Op.SetLeaves) {
        widenAggregateKeys(); // failures of the old leaves and of the new ones, until converged
      }
      controlPlane.publish(model.clusters, model.routes, ports(), false);
      return CONVERGE;
    }
    if (op instanceof Op.RouteOp r) {
      if (op instanceof Op.DeleteListener || op instanceof Op.RestoreListener) {
        windows.add(excuses.open(listenerKey(r.listener()), now));
      }
      // A route change opens no grace window: no call may fail because of it. The channels on the
      // listener may meet the failures of the clusters of the old routes and of the new.
      model.apply(op);
      for (SoakChannel ch : channels.values()) {
        if (ch.routed() && ch.cluster.equals(r.listener())) {
          ch.excuseKeys = union(ch.excuseKeys, routedKeys(ch));
          ch.failTexts = union(ch.failTexts, routedFailTexts(ch));
        }
      }
      controlPlane.publish(model.clusters, model.routes, ports(), false);
      return CONVERGE;
    }
    if (op instanceof Op.OpenRoutedChannel o) {
      windows.add(excuses.open(listenerKey(o.listener()), now));
      model.apply(op);
      ManagedChannelBuilder<?> builder =
          Grpc.newChannelBuilder("xds:///" + o.listener(), InsecureChannelCredentials.create())
              .executor(callbacks);
      if (!o.viaPool()) {
        builder.setNameResolverArg(XdsClusterPolicy.XDS_CLIENT_ARG, client);
      }
      ManagedChannel managed = builder.build();
      Metadata headers = new Metadata();
      headers.put(Metadata.Key.of(RouteModel.LANE_HEADER, Metadata.ASCII_STRING_MARSHALLER), o.lane());
      headers.put(Metadata.Key.of(RouteModel.USER_HEADER, Metadata.ASCII_STRING_MARSHALLER), "user-" + o.channel());
      SoakChannel ch = new SoakChannel(o.channel(), o.listener(), o.lane(), managed,
          ClientInterceptors.intercept(managed, MetadataUtils.newAttachHeadersInterceptor(headers)));
      ch.excuseKeys = routedKeys(ch);
      ch.failTexts = routedFailTexts(ch);
      channels.put(ch.id, ch);
      load.add(ch);
      return CONVERGE_AFTER_OPEN;
    }
    if (op instanceof Op.StopControlPlane s) {
      Set<String> watched = new HashSet<>(model.channels.values());
      for (SoakChannel ch : channels.values()) {
        if (ch.routed() && !model.routes.listener(ch.cluster).deleted) {
          watched.addAll(model.routes.listener(ch.cluster).clusters());
        }
        watched.addAll(watchedClusters(ch)); // with the leaves of aggregates
      }
      watchedAtStop = watched;
      model.apply(op);
      controlPlane.stop();
      stopNanos = System.nanoTime();
      stopDownMillis = s.downMillis();
      return CONVERGE;
    }
    if (op instanceof Op.StartControlPlane s) {
      long remaining = stopDownMillis - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopNanos);
      if (remaining > 0) {
        Thread.sleep(Math.min(remaining, 5_000));
      }
      for (ClusterModel c : model.clusters) {
        if (!model.served.get(c.name).describe().equals(c.describe())) {
          windows.add(excuses.open(c.name, now)); // changed while down: an operation about it lands now
        }
      }
      model.apply(op);
      controlPlane.publish(model.clusters, model.routes, ports(), s.newerVersion());
      controlPlane.start();
      report.controlPlaneRestarts++;
      return CONVERGE_AFTER_START;
    }
    if (op instanceof Op.KillBackend k) {
      setRetryGuards(k.backend());
      openForBackend(k.backend(), windows, now, true);
      backends.kill(k.backend());
      model.apply(op);
      return CONVERGE;
    }
    if (op instanceof Op.SickBackend s) {
      openForBackend(s.backend(), windows, now);
      ejections.begin(s.backend(), now);
      backends.setSick(s.backend(), true);
      try {
        Thread.sleep(s.millis());
      } finally {
        backends.setSick(s.backend(), false);
        ejections.end();
      }
      // Healed, it is still ejected (up to the ejection time); converged means back in its share.
      return CONVERGE;
    }
    if (op instanceof Op.RestartBackend r) {
      openForBackend(r.backend(), windows, now);
      backends.restart(r.backend());
      model.apply(op);
      // As an operator would after restarting a backend: skip gRPC's reconnect backoff (1 s growing
      // to 120 s), which would otherwise delay failback by up to two minutes.
      for (SoakChannel ch : channels.values()) {
        ch.channel.resetConnectBackoff();
      }
      return CONVERGE;
    }
    if (op instanceof Op.OpenChannel o) {
      windows.add(excuses.open(o.cluster(), now));
      boolean cached = cached(o.cluster(), now);
      model.apply(op);
      ManagedChannelBuilder<?> builder =
          Grpc.newChannelBuilder("xds-cluster:///" + o.cluster(), InsecureChannelCredentials.create())
              .executor(callbacks);
      if (!o.viaPool()) {
        builder.setNameResolverArg(XdsClusterPolicy.XDS_CLIENT_ARG, client);
      }
      ManagedChannel managed = builder.build();
      SoakChannel ch = new SoakChannel(o.channel(), o.cluster(), null, managed, managed);
      ch.cold = !model.controlPlaneUp && !cached;
      ch.expectFailures = model.expectation(o.cluster(), model.alive).kind() == Expectation.Kind.FAIL;
      ch.excuseKeys = Set.copyOf(model.expand(o.cluster()));
      channels.put(ch.id, ch);
      load.add(ch);
      return CONVERGE_AFTER_OPEN;
    }
    if (op instanceof Op.CloseChannel c) {
      SoakChannel ch = channels.remove(c.channel());
      windows.add(excuses.open(key(ch), now));
      ch.closing = true;
      load.remove(ch);
      model.apply(op);
      ch.channel.shutdownNow();
      if (!ch.channel.awaitTermination(5, TimeUnit.SECONDS)) {
        throw new SoakViolation("ch" + ch.id + " did not terminate within 5 s of shutdownNow");
      }
      for (String cluster : watchedClusters(ch)) {
        if (model.watchers(cluster) == 0) {
          lastWatched.put(cluster, System.nanoTime());
        }
      }
      return CONVERGE;
    }
    if (op instanceof Op.IdleChannel i) {
      SoakChannel ch = channels.get(i.channel());
      windows.add(excuses.open(key(ch), now));
      ch.channel.enterIdle();
      return CONVERGE;
    }
    if (op instanceof Op.BreakStreams) {
      controlPlane.breakStreams();
      return CONVERGE;
    }
    if (op instanceof Op.Recycle r) {
      windows.add(excuses.open(r.during().cluster(), now));
      long before = controlPlane.streamsOpened();
      controlPlane.recycle(true);
      model.apply(op);
      // A newer version even if the change was a no-op: the server must have something to send.
      controlPlane.publish(model.clusters, model.routes, ports(), true);
      Thread.sleep(r.millis());
      controlPlane.recycle(false);
      long opened = controlPlane.streamsOpened() - before;
      // No storm: a client whose streams end right after each response must still space its
      // reconnects (grpc-java waits for its backoff minus the stream's lifetime); 2 per second.
      long allowed = 2L * r.millis() / 1000 + 3;
      if (opened > allowed) {
        throw new SoakViolation(op.describe() + ": reconnect storm: " + opened + " ADS streams opened in "
            + r.millis() + " ms while the server closed each stream after a response (at most " + allowed + ")");
      }
      return CONVERGE_AFTER_RECYCLE;
    }
    if (op instanceof Op.Hold h) {
      FakeControlPlane fake = (FakeControlPlane) controlPlane;
      windows.add(excuses.open(h.during().cluster(), now));
      fake.holdResponses();
      model.apply(op);
      controlPlane.publish(model.clusters, model.routes, ports(), false);
      Thread.sleep(h.millis());
      fake.releaseResponses();
      return CONVERGE;
    }
    if (op instanceof Op.BadResource b) {
      FakeControlPlane fake = (FakeControlPlane) controlPlane;
      String type = b.cds() ? FakeAdsServer.CLUSTER_TYPE_URL : FakeAdsServer.ENDPOINTS_TYPE_URL;
      String name = b.cds() ? b.cluster() : model.cluster(b.cluster()).edsName();
      badSentAt.put(type + " " + name, expectedVersion(type, name));
      fake.sendBad(model.cluster(b.cluster()), b.cds(), ports(), config.delta());
      return CONVERGE;
    }
    throw new IllegalStateException("unknown operation " + op);
  }

  private void openForBackend(int backend, List<Excuses.Window> windows, long now) {
    openForBackend(backend, windows, now, false);
  }

  private void openForBackend(int backend, List<Excuses.Window> windows, long now, boolean endpointFailure) {
    for (ClusterModel c : model.clusters) {
      if (model.visible(c.name).backends().contains(backend)) {
        windows.add(excuses.open(c.name, now, endpointFailure));
      }
    }
  }

  /**
   * Before killing {@code backend}: each {@code xds:///} channel whose route retries at least twice
   * (its own policy or its virtual host's, gRFC A44) and whose clusters all keep a live usable
   * endpoint without it may not fail a call because of the kill.
   */
  private void setRetryGuards(int backend) {
    boolean[] after = model.alive.clone();
    after[backend] = false;
    for (SoakChannel ch : channels.values()) {
      if (!ch.routed() || ch.cold || !model.controlPlaneUp) {
        continue;
      }
      RouteModel.ListenerModel l = model.routes.listener(ch.cluster);
      boolean lane = l.takesLane(ch.lane);
      if (l.deleted || l.retries(lane) < 2) {
        continue;
      }
      boolean healthy = true;
      for (var e : l.route(lane).entrySet()) {
        healthy &= e.getValue() == 0
            || model.expectation(e.getKey(), after).kind() == Expectation.Kind.ROUTE;
      }
      if (healthy) {
        model.retryGuards++;
        ch.retryGuard = (lane ? "lane" : "default") + " route " + l.route(lane) + " with " + l.retries(lane)
            + " retries";
      }
    }
  }

  /** Whether the shared client still holds a value for the cluster (watched now, at the stop, or recently). */
  private boolean cached(String cluster, long now) {
    if (watchedAtStop.contains(cluster) && !model.controlPlaneUp) {
      return true;
    }
    for (SoakChannel ch : channels.values()) {
      if (watchedClusters(ch).contains(cluster) && !ch.cold) {
        return true;
      }
    }
    Long last = lastWatched.get(cluster);
    return last != null && now - last < CACHED_NANOS;
  }

  // ------------------------------------------------------------------ RPC results

  private void onRpc(RpcResult r) {
    report.count(r);
    String notEjected = ejections.check(r);
    if (notEjected != null) {
      violations.add("during operation #" + opNumber + ": " + notEjected);
    }
    SoakChannel ch = r.channel();
    Sample s = ch.sample.get();
    if (s != null) {
      s.offer(r);
    }
    if (r.ok() || r.dropped() || ch.closing || ch.cold || ch.expectFailures) {
      return;
    }
    for (String text : ch.failTexts) {
      if (r.code() == Status.Code.UNAVAILABLE && r.description().contains(text)) {
        return;
      }
    }
    String guard = ch.retryGuard;
    for (String key : ch.excuseKeys) {
      if (excuses.covers(key, r.startNanos(), r.endNanos(), guard != null)) {
        return;
      }
    }
    if (guard != null) {
      violations.add("during operation #" + opNumber + ": a call on a " + guard + " failed as one endpoint"
          + " died while its clusters kept a live endpoint (gRFC A44: retries must hide it): " + r.describe());
      return;
    }
    violations.add("during operation #" + opNumber + ": an RPC failed outside any grace window of its "
        + (ch.routed() ? "listener and clusters" : "cluster") + ": " + r.describe());
  }

  private void checkViolations() {
    String v = violations.peek();
    if (v != null) {
      throw new SoakViolation(v);
    }
    RuntimeException loadFailure = load.failure.get();
    if (loadFailure != null) {
      throw new SoakViolation("the RPC load generator failed: " + loadFailure);
    }
    if (controlPlane instanceof FakeControlPlane fake && !fake.unexpectedErrors().isEmpty()) {
      throw new SoakViolation("FakeAdsServer failed inside: " + fake.unexpectedErrors());
    }
  }

  // ------------------------------------------------------------------ convergence

  private void converge(Op op, long applied, Duration bound) throws InterruptedException {
    long deadline = applied + bound.toNanos();
    // The reason of the last check that had its full time: the check running into the deadline
    // is cut short, and "too few RPCs finished" then says nothing about why it did not converge.
    String reason = null;
    while (true) {
      checkViolations();
      long attempt = System.nanoTime();
      String why = check(QUICK_SAMPLE, deadline, false);
      if (why == null) {
        why = check(SHARE_SAMPLE, deadline, true);
        if (why == null) {
          report.convergeMillis.add(TimeUnit.NANOSECONDS.toMillis(attempt - applied));
          break;
        }
      }
      if (reason == null || System.nanoTime() <= deadline) {
        reason = why;
      }
      if (System.nanoTime() > deadline) {
        throw new SoakViolation("#" + opNumber + " " + op.describe() + ": no convergence within "
            + bound.toSeconds() + " s: " + reason);
      }
      Thread.sleep(20);
    }
    checkViolations();
    long now = System.nanoTime();
    for (SoakChannel ch : channels.values()) {
      if (ch.routed()) {
        ch.excuseKeys = routedKeys(ch);
        ch.failTexts = routedFailTexts(ch);
      } else {
        ch.expectFailures = model.expectation(ch.cluster, model.alive).kind() == Expectation.Kind.FAIL;
        ch.excuseKeys = Set.copyOf(model.expand(ch.cluster));
      }
      if (model.controlPlaneUp) {
        ch.cold = false;
        for (String cluster : watchedClusters(ch)) {
          model.lastSeen.put(cluster, model.cluster(cluster).copy());
        }
      }
      for (String cluster : watchedClusters(ch)) {
        lastWatched.put(cluster, now);
      }
    }
  }

  /** Null if every invariant holds over a fresh sample of {@code size} RPCs per channel, else why not. */
  private String check(int size, long deadline, boolean shares) throws InterruptedException {
    if (model.controlPlaneUp) {
      String stream = checkStreamAndStatus();
      if (stream != null) {
        return stream;
      }
    }
    Map<SoakChannel, Sample> samples = new LinkedHashMap<>();
    long start = System.nanoTime();
    for (SoakChannel ch : channels.values()) {
      if (!ch.cold) {
        Sample s = new Sample(sampleSize(ch, size, shares));
        ch.sample.set(s);
        s.begin(ch.issued.get());
        samples.put(ch, s);
      }
    }
    try {
      // Enough time for the sample at 200 RPC/s (allowing 100) plus one RPC deadline, within the converge bound.
      int most = shares ? Math.max(size, ROUTED_SHARE_SAMPLE) : size;
      long wait = Math.min(deadline, start + TimeUnit.MILLISECONDS.toNanos(most * 10L + RpcLoad.DEADLINE_MILLIS + 500));
      for (var e : samples.entrySet()) {
        if (!e.getValue().await(wait)) {
          return "ch" + e.getKey().id + " (" + e.getKey().cluster + "): only " + e.getValue().size() + " of "
              + sampleSize(e.getKey(), size, shares) + " RPCs finished in time";
        }
      }
    } finally {
      for (SoakChannel ch : samples.keySet()) {
        ch.sample.set(null);
      }
    }
    for (var e : samples.entrySet()) {
      SoakChannel ch = e.getKey();
      if (ch.routed()) {
        String why = RoutedJudge.judge(model, ch, e.getValue().results(), shares);
        if (why != null) {
          return "ch" + ch.id + " (" + model.routes.listener(ch.cluster).describe() + ", lane " + ch.lane + "): "
              + why;
        }
        continue;
      }
      Expectation exp = model.expectation(ch.cluster, model.alive);
      String why = judge(ch, exp, e.getValue().results(), shares);
      if (why != null) {
        return "ch" + ch.id + " (" + model.visible(ch.cluster).describe() + "): " + why;
      }
    }
    return null;
  }

  static String judge(SoakChannel ch, Expectation exp, List<RpcResult> results, boolean shares) {
    Map<Integer, Integer> counts = new HashMap<>();
    int ok = 0;
    int dropped = 0;
    for (RpcResult r : results) {
      if (r.dropped() && exp.dropFraction() > 0 && !(exp.kind() == Expectation.Kind.FAIL && exp.why()
          .equals("deleted"))) {
        dropped++;
        continue;
      }
      boolean fits = exp.kind() == Expectation.Kind.ROUTE
          ? r.ok() && exp.shares().containsKey(r.backend())
          : !r.ok() && r.code() == Status.Code.UNAVAILABLE && r.description().contains(exp.failText());
      if (!fits) {
        return "RPC " + r.describe() + ", expected " + exp.describe();
      }
      if (r.ok()) {
        ok++;
        counts.merge(r.backend(), 1, Integer::sum);
      }
    }
    if (!shares || exp.kind() != Expectation.Kind.ROUTE) {
      return null;
    }
    for (var e : exp.ringHash() ? Map.<Integer, Double>of().entrySet() : exp.shares().entrySet()) {
      double observed = ok == 0 ? 0 : counts.getOrDefault(e.getKey(), 0) / (double) ok;
      if (Math.abs(observed - e.getValue()) > SHARE_BOUND) {
        return String.format("b%d got %.1f%% of %d RPCs, expected %.1f%% ± %.0f points: %s, counts %s",
            e.getKey(), observed * 100, ok, e.getValue() * 100, SHARE_BOUND * 100, exp.describe(), counts);
      }
    }
    // Drops draw at random per RPC: 5 binomial σ plus one point, so a correct client never fails it.
    double p = exp.dropFraction();
    double observedDrop = dropped / (double) results.size();
    double dropBound = 5 * Math.sqrt(p * (1 - p) / results.size()) + 0.01;
    if (Math.abs(observedDrop - p) > dropBound) {
      return String.format("dropped %.1f%% of %d RPCs, expected %.1f%% ± %.1f points",
          observedDrop * 100, results.size(), p * 100, dropBound * 100);
    }
    return null;
  }

  /** One ADS stream, connected, and the client's versions equal to the control plane's for every watched resource. */
  private String checkStreamAndStatus() {
    int open = controlPlane.openStreams();
    if (open != 1) {
      return "the control plane has " + open + " ADS streams open, expected 1";
    }
    XdsClientStatus status = client.status();
    if (!status.connected()) {
      return "client status: not connected";
    }
    Set<String> watched = new TreeSet<>();
    Set<String> listeners = new TreeSet<>();
    for (SoakChannel ch : channels.values()) {
      if (!ch.cold) {
        watched.addAll(watchedClusters(ch));
      }
      if (ch.routed()) {
        listeners.add(ch.cluster);
      }
    }
    for (String name : listeners) {
      String why = listenerStatus(status, model.routes.listener(name));
      if (why != null) {
        return why;
      }
    }
    for (String name : watched) {
      ClusterModel c = model.cluster(name);
      String cds = FakeAdsServer.CLUSTER_TYPE_URL;
      Optional<ResourceStatus> cluster = status.resource(cds, name);
      if (cluster.isEmpty()) {
        return "client status lacks Cluster " + name;
      }
      if (c.deleted) {
        if (cluster.get().state() != ResourceState.DOES_NOT_EXIST && cluster.get().state() != ResourceState.TIMEOUT) {
          return "client status: deleted Cluster " + name + " is " + cluster.get().state();
        }
        continue;
      }
      String why = versionMismatch(cluster.get(), cds, name);
      if (why != null) {
        return why;
      }
      if (c.dns() || c.aggregate()) {
        continue; // a LOGICAL_DNS or aggregate cluster has no ClusterLoadAssignment
      }
      String eds = FakeAdsServer.ENDPOINTS_TYPE_URL;
      Optional<ResourceStatus> endpoints = status.resource(eds, c.edsName());
      if (endpoints.isEmpty()) {
        return "client status lacks ClusterLoadAssignment " + c.edsName();
      }
      why = versionMismatch(endpoints.get(), eds, c.edsName());
      if (why != null) {
        return why;
      }
    }
    return null;
  }

  /** The listener (DOES_NOT_EXIST once deleted) and its route configuration at the control plane's versions. */
  private String listenerStatus(XdsClientStatus status, RouteModel.ListenerModel l) {
    String lds = FakeAdsServer.LISTENER_TYPE_URL;
    Optional<ResourceStatus> listener = status.resource(lds, l.name);
    if (listener.isEmpty()) {
      return "client status lacks Listener " + l.name;
    }
    if (l.deleted) {
      return listener.get().state() == ResourceState.DOES_NOT_EXIST ? null
          : "client status: deleted Listener " + l.name + " is " + listener.get().state();
    }
    String why = versionMismatch(listener.get(), lds, l.name);
    if (why != null || !l.rds) {
      return why;
    }
    String rds = FakeAdsServer.ROUTE_TYPE_URL;
    Optional<ResourceStatus> routes = status.resource(rds, l.routesName());
    if (routes.isEmpty()) {
      return "client status lacks RouteConfiguration " + l.routesName();
    }
    return versionMismatch(routes.get(), rds, l.routesName());
  }

  // ------------------------------------------------------------------ xds:/// channels

  /** Number of RPCs of a share check on an {@code xds:///} channel: weighted clusters are drawn at random. */
  static final int ROUTED_SHARE_SAMPLE = 300;

  private static int sampleSize(SoakChannel ch, int size, boolean shares) {
    return shares && ch.routed() ? ROUTED_SHARE_SAMPLE : size;
  }

  static String listenerKey(String listener) {
    return "listener " + listener;
  }

  /** The grace-window key of operations on the channel itself (open, close, idle). */
  private static String key(SoakChannel ch) {
    return ch.routed() ? listenerKey(ch.cluster) : ch.cluster;
  }

  /** The clusters the channel makes the client watch. */
  private Set<String> watchedClusters(SoakChannel ch) {
    if (!ch.routed()) {
      return model.expand(ch.cluster);
    }
    RouteModel.ListenerModel l = model.routes.listener(ch.cluster);
    return l.deleted ? Set.of() : expandAll(l.clusters());
  }

  /** The clusters and the leaves of those that are aggregates. */
  private Set<String> expandAll(Set<String> clusters) {
    Set<String> out = new HashSet<>();
    for (String c : clusters) {
      out.addAll(model.expand(c));
    }
    return out;
  }

  /** After an aggregate's leaves changed: its channels are excused by operations on old and new leaves. */
  private void widenAggregateKeys() {
    for (SoakChannel ch : channels.values()) {
      ch.excuseKeys = union(ch.excuseKeys, ch.routed() ? routedKeys(ch) : model.expand(ch.cluster));
    }
  }

  private Set<String> routedKeys(SoakChannel ch) {
    Set<String> keys = expandAll(model.routes.listener(ch.cluster).clusters());
    keys.add(listenerKey(ch.cluster));
    return Set.copyOf(keys);
  }

  /** What the clusters of the channel's route (or its deleted listener) fail calls with now. */
  private Set<String> routedFailTexts(SoakChannel ch) {
    RouteModel.ListenerModel l = model.routes.listener(ch.cluster);
    Set<String> texts = new HashSet<>();
    if (l.deleted) {
      texts.add(RoutedJudge.deletedText(l));
    }
    for (String cluster : l.clusters()) {
      Expectation e = model.expectation(cluster, model.alive);
      if (e.kind() == Expectation.Kind.FAIL) {
        texts.add(e.failText());
      }
    }
    return Set.copyOf(texts);
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> out = new HashSet<>(a);
    out.addAll(b);
    return Set.copyOf(out);
  }

  /** State of the world: the type's version; delta: the resource's own. */
  private String expectedVersion(String typeUrl, String name) {
    return config.delta() ? controlPlane.resourceVersion(typeUrl, name) : controlPlane.version(typeUrl);
  }

  private String versionMismatch(ResourceStatus r, String typeUrl, String name) {
    String want = expectedVersion(typeUrl, name);
    boolean nackAllowed = want.equals(badSentAt.get(typeUrl + " " + name));
    boolean stateOk = r.state() == ResourceState.ACKED || (nackAllowed && r.state() == ResourceState.NACKED);
    if (!r.version().equals(want) || !stateOk) {
      return "client status: " + name + " at version \"" + r.version() + "\" " + r.state()
          + ", control plane at \"" + want + "\"" + r.lastError().map(e -> " (" + e + ")").orElse("");
    }
    return null;
  }

  // ------------------------------------------------------------------ growth

  private void sampleResources(boolean force) {
    long elapsed = elapsedMillis();
    if (force || elapsed - lastThreadSample >= 200) {
      report.threads.add(new long[] {elapsed, ManagementFactory.getThreadMXBean().getThreadCount()});
      lastThreadSample = elapsed;
    }
    long heapEvery = Math.max(5_000, config.duration().toMillis() / 60);
    if (force || elapsed - lastHeapSample >= heapEvery) {
      System.gc();
      report.heapBytes.add(new long[] {elapsed, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed()});
      lastHeapSample = elapsed;
    }
  }

  /**
   * Quarters of the run after setup (the initial channels converged). Threads: the last quarter's
   * median at most 10 % (+2 for gRPC's shared executors, whose idle threads expire after a
   * minute) above the first quarter's. Heap after System.gc(): the same
   * 10 % (+2 MB), asserted in long runs only (a short run's first quarter is still warming up).
   */
  private void checkGrowth() {
    long s = setupEndMillis;
    long q = (report.elapsedMillis - s) / 4;
    long firstThreads = SoakReport.medianBetween(report.threads, s, s + q);
    long lastThreads = SoakReport.medianBetween(report.threads, s + 3 * q, Long.MAX_VALUE);
    if (lastThreads > firstThreads * 1.10 + 2) {
      throw new SoakViolation("thread growth: median " + firstThreads + " threads in the first quarter, "
          + lastThreads + " in the last");
    }
    if (config.assertHeap()) {
      long firstHeap = SoakReport.medianBetween(report.heapBytes, s, s + q);
      long lastHeap = SoakReport.medianBetween(report.heapBytes, s + 3 * q, Long.MAX_VALUE);
      if (lastHeap > firstHeap * 1.10 + 2_000_000) {
        throw new SoakViolation(String
            .format("heap growth: median %.1f MB used after GC in the first quarter, %.1f MB in the last",
            firstHeap / 1e6, lastHeap / 1e6));
      }
    }
  }

  private void progress() {
    long now = System.nanoTime();
    if (config.duration().toMinutes() < 2 || now - lastProgress < TimeUnit.SECONDS.toNanos(60)) {
      return;
    }
    lastProgress = now;
    System.out.printf("[soak %s seed %d] %ds: %d ops, %d RPCs, %d failed, %d restarts%n",
        config.mode(), config.seed(), elapsedMillis() / 1000, report.ops, report.rpcs.sum(),
        report.rpcs.sum() - report.succeeded.sum() - report.dropped.sum(), report.controlPlaneRestarts);
  }

  // ------------------------------------------------------------------ teardown

  @Override
  public void close() {
    List<Exception> errors = new ArrayList<>();
    if (load != null) {
      attempt(errors, load::close);
    }
    for (SoakChannel ch : channels.values()) {
      ch.closing = true;
      attempt(errors, () -> ch.channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
    }
    channels.clear();
    if (lease != null) {
      attempt(errors, lease::close);
    }
    if (controlPlane != null) {
      attempt(errors, controlPlane::close);
    }
    if (backends != null) {
      attempt(errors, backends::close);
    }
    if (callbacks != null) {
      callbacks.shutdownNow();
    }
    if (previousBootstrap == null) {
      System.clearProperty(BOOTSTRAP_PROPERTY);
    } else {
      System.setProperty(BOOTSTRAP_PROPERTY, previousBootstrap);
    }
    if (!errors.isEmpty()) {
      throw new IllegalStateException("soak teardown failed", errors.get(0));
    }
  }

  private interface Action {
    void run() throws Exception;
  }

  private static void attempt(List<Exception> errors, Action action) {
    try {
      action.run();
    } catch (Exception e) {
      errors.add(e);
    }
  }
}
