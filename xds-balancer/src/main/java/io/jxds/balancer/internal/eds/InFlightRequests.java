package io.jxds.balancer.internal.eds;

import io.grpc.ClientStreamTracer;
import io.jxds.balancer.internal.picker.OpenStreams;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The number of RPC streams open to one (cluster, EDS service name), shared by every channel of
 * the process, for circuit breaking (gRFC A32: {@code max_requests}).
 *
 * <p>Counted always, whether or not load reporting is on (grpc-java counts only with LRS), by
 * {@link OpenStreams}: from the stream's creation to its close, whatever the outcome.
 *
 * <p>Entries live as long as the process: there is one per distinct cluster a process has ever
 * used, a few hundred bytes each.
 */
final class InFlightRequests {
  private record Key(String cluster, String edsServiceName) {}

  private static final ConcurrentMap<Key, InFlightRequests> ALL = new ConcurrentHashMap<>();

  private final OpenStreams open = new OpenStreams();

  private InFlightRequests() {}

  /** The process-wide counter of {@code cluster} and {@code edsServiceName}. */
  static InFlightRequests of(String cluster, String edsServiceName) {
    return ALL.computeIfAbsent(new Key(cluster, edsServiceName), k -> new InFlightRequests());
  }

  /** Streams open now. */
  long open() {
    return open.get();
  }

  /** Attaches to a pick so the stream it becomes is counted while open. */
  ClientStreamTracer.Factory tracerFactory() {
    return open.tracerFactory();
  }
}
