package io.jxds.soak;

import io.grpc.ManagedChannel;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** One channel on {@code xds-cluster:///CLUSTER} under load, with what the harness expects of it. */
final class SoakChannel {
  final int id;
  final String cluster;
  final ManagedChannel channel;
  final AtomicInteger inFlight = new AtomicInteger();
  final AtomicReference<Sample> sample = new AtomicReference<>();
  /** Set before shutdown: its RPCs are cancelled, which is no failure of the client. */
  volatile boolean closing;
  /**
   * Opened while the control plane was down, on a cluster the client had no cached value for: it
   * cannot route until the control plane is back, so its RPCs may wait or fail until then.
   */
  volatile boolean cold;
  /** The last converged expectation was FAIL: failures are expected. */
  volatile boolean expectFailures;

  SoakChannel(int id, String cluster, ManagedChannel channel) {
    this.id = id;
    this.cluster = cluster;
    this.channel = channel;
  }
}
