package io.jxds.examples;

import java.io.PrintStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Prints one {@link TableRenderer} row per second on a daemon thread, and the header every 20 rows
 * and whenever the topology changes.
 */
final class LiveTable implements AutoCloseable {
  private static final int HEADER_EVERY = 20;

  private final TrafficStats stats;
  private final Supplier<Topology> topology;
  private final AtomicReference<String> currentStep;
  private final PrintStream out;
  private final TableRenderer renderer = new TableRenderer();
  private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "demo-table");
    t.setDaemon(true);
    return t;
  });
  private final long startNanos = System.nanoTime();
  private TrafficStats.Snapshot last; // ticker thread only
  private int rows; // ticker thread only
  private Topology headerTopology; // ticker thread only

  LiveTable(TrafficStats stats, Supplier<Topology> topology, AtomicReference<String> currentStep, PrintStream out) {
    this.stats = stats;
    this.topology = topology;
    this.currentStep = currentStep;
    this.out = out;
  }

  /** Starts printing. */
  LiveTable start() {
    last = stats.snapshot();
    ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
    return this;
  }

  private void tick() {
    TrafficStats.Snapshot now = stats.snapshot();
    Topology t = topology.get();
    synchronized (out) {
      // Again every few rows, and whenever the localities change (an external control plane).
      if (rows++ % HEADER_EVERY == 0 || !t.equals(headerTopology)) {
        renderer.header(t).forEach(out::println);
        headerTopology = t;
      }
      out.println(renderer.row(TimeUnit.NANOSECONDS.toSeconds(now.nanoTime() - startNanos), currentStep.get(),
          new Shares(t, now.since(last))));
    }
    last = now;
  }

  /** Stops printing; an interrupt is kept for the caller. */
  @Override
  public void close() {
    ticker.shutdownNow();
    try {
      ticker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
