package io.jxds.balancer.internal.eds;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The requests in flight to one (cluster, EDS service name), shared by every channel of the
 * process, for circuit breaking (gRFC A32: {@code max_requests}): admitted by a pick, and counted
 * from that pick until their stream closes ({@link AdmittedRequests} says how).
 *
 * <p>Counted always, whether or not load reporting is on (grpc-java counts only with LRS). The
 * limit is checked and the request counted in one atomic step, so no burst of picks gets past it.
 *
 * <p>Entries live as long as the process: there is one per distinct cluster a process has ever
 * used, a few hundred bytes each.
 */
final class InFlightRequests {
  private record Key(String cluster, String edsServiceName) {}

  private static final ConcurrentMap<Key, InFlightRequests> ALL = new ConcurrentHashMap<>();

  private final AtomicLong open = new AtomicLong();

  private InFlightRequests() {}

  /** The process-wide counter of {@code cluster} and {@code edsServiceName}. */
  static InFlightRequests of(String cluster, String edsServiceName) {
    return ALL.computeIfAbsent(new Key(cluster, edsServiceName), k -> new InFlightRequests());
  }

  /** Requests in flight now. */
  long open() {
    return open.get();
  }

  /** Counts one more request unless {@code max} are in flight already; false when refused. */
  boolean tryAdmit(long max) {
    long n;
    do {
      n = open.get();
      if (n >= max) {
        return false;
      }
    } while (!open.compareAndSet(n, n + 1));
    return true;
  }

  /** Counts a stream that was admitted but whose count was given back before it showed up. */
  void add() {
    open.incrementAndGet();
  }

  /** Stops counting {@code n} requests. */
  void release(long n) {
    if (n != 0) {
      open.addAndGet(-n);
    }
  }
}
