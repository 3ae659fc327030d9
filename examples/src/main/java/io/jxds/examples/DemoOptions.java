package io.jxds.examples;

import java.time.Duration;
import java.util.Optional;

/**
 * Command-line flags.
 *
 * @param xdsServer {@code host:port} of an external control plane; empty for the embedded one
 * @param cluster the cluster to route to
 * @param duration the script's length (embedded), or how long to show the table (external; zero:
 *     until interrupted)
 * @param rate RPCs per second over every worker
 * @param status print the CSDS dump of the process's xDS clients as a table, once traffic flows and
 *     at the end
 * @param listener with an external control plane: the channel's target is {@code xds:///LISTENER}
 *     (its routes choose the clusters) rather than {@code xds-cluster:///CLUSTER}
 */
record DemoOptions(Optional<String> xdsServer, String cluster, Duration duration, int rate, boolean status,
    Optional<String> listener) {
  static final String USAGE = String.join("\n",
      "usage: demo [--duration SECONDS] [--rate RPCS_PER_SECOND] [--status]",
      "       demo --xds-server HOST:PORT --cluster NAME [--listener SERVICE]",
      "            [--duration SECONDS] [--status]",
      "",
      "Without --xds-server: an embedded control plane, 10 backends and an xds:/// client on",
      "127.0.0.1 run a scripted tour of jxds's routing (~35 s); exit code 0 if every step passed.",
      "With --xds-server: only the live table for cluster NAME, routed by that control plane",
      "(insecure ADS; the client calls grpc.health.v1.Health/Check on the backends); with",
      "--listener, the channel is xds:///SERVICE and the service's routes choose its clusters.",
      "--status prints what the xDS client holds (CSDS: each resource's version, state, NACK",
      "error) as a table once traffic flows and again at the end.");

  static final String DEFAULT_CLUSTER = "payments";
  /** One second per step of the script, at least. */
  static final int MIN_SECONDS = 10;
  /** The script's default length: the fifteen steps in about 35 s, as the ten before them took. */
  static final Duration DEFAULT_DURATION = Duration.ofSeconds(35);

  /** Parses {@code args}; throws IllegalArgumentException with a message on bad input. */
  static DemoOptions parse(String... args) {
    Optional<String> xdsServer = Optional.empty();
    Optional<String> listener = Optional.empty();
    String cluster = null;
    Duration duration = null;
    int rate = 1500;
    boolean status = false;
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (flag.equals("--help") || flag.equals("-h")) {
        throw new IllegalArgumentException("");
      }
      if (flag.equals("--status")) {
        status = true;
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value after " + flag);
      }
      String value = args[++i];
      switch (flag) {
        case "--xds-server" -> xdsServer = Optional.of(value);
        case "--cluster" -> cluster = value;
        case "--listener" -> listener = Optional.of(value);
        case "--duration" -> duration = Duration.ofSeconds(positive(flag, value, true));
        case "--rate" -> rate = positive(flag, value, false);
        default -> throw new IllegalArgumentException("unknown flag " + flag);
      }
    }
    if (xdsServer.isEmpty() && listener.isPresent()) {
      throw new IllegalArgumentException("--listener needs --xds-server HOST:PORT (the embedded demo has its own)");
    }
    if (xdsServer.isPresent() && cluster == null) {
      throw new IllegalArgumentException("--xds-server needs --cluster NAME");
    }
    if (xdsServer.isEmpty() && duration != null && duration.toSeconds() < MIN_SECONDS) {
      throw new IllegalArgumentException("--duration: the script needs at least " + MIN_SECONDS + " seconds");
    }
    return new DemoOptions(xdsServer, cluster == null ? DEFAULT_CLUSTER : cluster,
        duration != null ? duration : xdsServer.isPresent() ? Duration.ZERO : DEFAULT_DURATION, rate, status,
        listener);
  }

  private static int positive(String flag, String value, boolean zeroAllowed) {
    try {
      int n = Integer.parseInt(value);
      if (n > 0 || (zeroAllowed && n == 0)) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(flag + ": expected a positive number, got " + value);
  }
}
