package io.jxds.balancer.internal.eds;

import io.grpc.Attributes;
import io.grpc.ClientStreamTracer;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.util.ForwardingClientStreamTracer;
import io.jxds.api.model.DropOverload;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;

/**
 * The cluster-level admission of an RPC, wrapped around the priority tree's picker:
 *
 * <ol>
 *   <li>Drop overloads ({@code ClusterLoadAssignment.policy.drop_overloads}): each category in
 *       order draws a number in [0, 1 000 000); below its parts per million, the RPC is dropped
 *       with UNAVAILABLE "dropped by load balancer: category X". Categories draw independently, so
 *       two categories of 10 % drop 19 % in all, as Envoy and gRPC do.
 *   <li>The child picks a subchannel.
 *   <li>Circuit breaking: with {@code maxRequests} streams already open to the cluster, the RPC
 *       fails UNAVAILABLE "cluster X: max concurrent requests N exceeded"; otherwise the pick
 *       carries a tracer that counts its stream while it is open.
 * </ol>
 *
 * <p>Drops go through {@link PickResult#withDrop}: gRPC neither retries them nor waits for ready.
 * Immutable; safe on any thread.
 */
final class ClusterRequestPicker extends SubchannelPicker {
  private static final int MAX_CACHED = 1 << 16;

  private final SubchannelPicker child;
  private final int[] dropPartsPerMillion;
  private final PickResult[] dropResults;
  private final AtomicLong[] dropCounters;
  private final InFlightRequests inFlight;
  private final long maxRequests;
  private final PickResult overLimit;
  private final AtomicLong circuitBreakerDrops;
  private final RandomGenerator random;
  /** The admitted result for each of the child's results (pickers pre-make theirs: a few per endpoint). */
  private final ConcurrentMap<PickResult, PickResult> admitted = new ConcurrentHashMap<>();

  ClusterRequestPicker(
      String cluster,
      SubchannelPicker child,
      List<DropOverload> drops,
      DropStats stats,
      InFlightRequests inFlight,
      long maxRequests,
      RandomGenerator random) {
    this.child = child;
    this.random = random;
    this.inFlight = inFlight;
    this.maxRequests = maxRequests;
    int n = drops.size();
    this.dropPartsPerMillion = new int[n];
    this.dropResults = new PickResult[n];
    this.dropCounters = new AtomicLong[n];
    for (int i = 0; i < n; i++) {
      DropOverload d = drops.get(i);
      dropPartsPerMillion[i] = d.partsPerMillion();
      dropResults[i] = PickResult.withDrop(
          Status.UNAVAILABLE.withDescription("dropped by load balancer: category " + d.category()));
      dropCounters[i] = stats.category(d.category());
    }
    this.overLimit = PickResult.withDrop(Status.UNAVAILABLE.withDescription(
        "cluster " + cluster + ": max concurrent requests " + maxRequests + " exceeded"));
    this.circuitBreakerDrops = stats.circuitBreaker();
  }

  @Override
  public PickResult pickSubchannel(PickSubchannelArgs args) {
    for (int i = 0; i < dropPartsPerMillion.length; i++) {
      if (random.nextInt(DropOverload.MILLION) < dropPartsPerMillion[i]) {
        dropCounters[i].incrementAndGet();
        return dropResults[i];
      }
    }
    PickResult picked = child.pickSubchannel(args);
    if (picked.getSubchannel() == null) {
      return picked; // queued (no subchannel yet) or an error: nothing to admit
    }
    if (inFlight.open() >= maxRequests) {
      circuitBreakerDrops.incrementAndGet();
      return overLimit;
    }
    // One admitted result per child result, made on its first pick, so a pick allocates nothing:
    // the picker lives until the next state change, and jxds's child pickers return results made
    // when they were built (one per endpoint, least request's with its counting tracer). A child
    // that made a new result per pick would fill the map: past MAX_CACHED, results are not kept.
    PickResult result = admitted.get(picked);
    if (result == null) {
      result = admit(picked);
      if (admitted.size() < MAX_CACHED) {
        admitted.putIfAbsent(picked, result);
      }
    }
    return result;
  }

  private PickResult admit(PickResult picked) {
    ClientStreamTracer.Factory childTracer = picked.getStreamTracerFactory();
    return PickResult.withSubchannel(picked.getSubchannel(), childTracer == null
        ? inFlight.tracerFactory()
        : new BothTracers(childTracer, inFlight.tracerFactory()));
  }

  @Override
  public String toString() {
    return "ClusterRequestPicker{drops=" + dropPartsPerMillion.length + ", maxRequests=" + maxRequests
        + ", child=" + child + "}";
  }

  /**
   * Keeps a tracer the child attached: it sees every event, and the counting tracer sees stream
   * creation and close as well.
   */
  private static final class BothTracers extends ClientStreamTracer.Factory {
    private final ClientStreamTracer.Factory child;
    private final ClientStreamTracer.Factory counting;

    BothTracers(ClientStreamTracer.Factory child, ClientStreamTracer.Factory counting) {
      this.child = child;
      this.counting = counting;
    }

    @Override
    public ClientStreamTracer newClientStreamTracer(ClientStreamTracer.StreamInfo info, Metadata headers) {
      ClientStreamTracer childTracer = child.newClientStreamTracer(info, headers);
      ClientStreamTracer countingTracer = counting.newClientStreamTracer(info, headers);
      return new ForwardingClientStreamTracer() {
        @Override
        protected ClientStreamTracer delegate() {
          return childTracer;
        }

        @Override
        public void streamCreated(Attributes transportAttrs, Metadata h) {
          countingTracer.streamCreated(transportAttrs, h);
          super.streamCreated(transportAttrs, h);
        }

        @Override
        public void streamClosed(Status status) {
          countingTracer.streamClosed(status);
          super.streamClosed(status);
        }
      };
    }
  }
}
