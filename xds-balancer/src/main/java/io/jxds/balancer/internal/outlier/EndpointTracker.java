package io.jxds.balancer.internal.outlier;

import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What outlier detection knows of one endpoint of the cluster, keyed by its address set (gRFC
 * A50's map entry, A61's per-endpoint form): its call counter, the last interval's counts, whether
 * and since when it is ejected, its ejection multiplier and its subchannels, one per balancer
 * that serves the endpoint. Kept as long as the endpoint is in the cluster's assignment, whatever
 * priority or locality lists it. On the SynchronizationContext, except {@link #calls}.
 */
final class EndpointTracker {
  final Set<SocketAddress> addresses;
  final String name;
  final CallCounter calls = new CallCounter();
  final List<OutlierSubchannel> subchannels = new ArrayList<>(1);
  long successes;
  long failures;
  boolean ejected;
  long ejectedAtNanos;
  int multiplier;

  EndpointTracker(Set<SocketAddress> addresses) {
    this.addresses = addresses;
    this.name = addresses.size() == 1 ? String.valueOf(addresses.iterator().next()) : String.valueOf(addresses);
  }

  /** Takes the interval's counts (gRFC A50 sweep step 2). */
  void swapCounts() {
    long drained = calls.drain();
    successes = CallCounter.successes(drained);
    failures = CallCounter.failures(drained);
  }

  long volume() {
    return successes + failures;
  }

  void eject(long now) {
    ejected = true;
    ejectedAtNanos = now;
    multiplier++;
    for (OutlierSubchannel s : subchannels) {
      s.eject();
    }
  }

  void uneject() {
    ejected = false;
    for (OutlierSubchannel s : subchannels) {
      s.uneject();
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
