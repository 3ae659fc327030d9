package io.jxds.balancer.internal.eds;

import io.grpc.Attributes;
import io.grpc.ClientStreamTracer;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.Subchannel;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.util.ForwardingClientStreamTracer;
import io.jxds.api.model.DropOverload;
import io.jxds.api.model.LocalityId;
import io.jxds.balancer.internal.metrics.ClusterMetrics;
import io.jxds.balancer.internal.metrics.MetricCounter;
import io.jxds.balancer.internal.outlier.CallCounter;
import io.jxds.balancer.internal.outlier.OutlierDetector;
import io.jxds.balancer.internal.tree.EndpointLocality;
import io.jxds.client.internal.lrs.ClusterLoadStats;
import io.jxds.client.internal.lrs.LocalityLoadStats;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
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
 *   <li>Circuit breaking: with {@code maxRequests} requests already in flight to the cluster, the
 *       RPC fails UNAVAILABLE "cluster X: max concurrent requests N exceeded"; otherwise it is
 *       counted at once, in the same atomic step as the check, until its stream closes ({@link
 *       AdmittedRequests}: the pick's tracer takes the count over).
 * </ol>
 *
 * <p>With load reporting on ({@code lrs_server: self}), each drop is also counted for LRS (the
 * circuit breaker's refusals as drops without a category, as gRPC does), and each stream in the
 * {@link LocalityLoadStats} of its subchannel's locality. Those counters belong to the client,
 * not to this picker, so a picker swap loses nothing. With metrics on, drops, refusals and picks
 * per locality are counted too; a pick then costs one counter increment more.
 *
 * <p>A subchannel's locality is its {@link EndpointLocality}, read when this picker first admits
 * a pick of it. The balancer below moves that holder when an assignment moves a kept endpoint to
 * another locality, before the EDS layer builds the assignment's picker, so the locality is the
 * endpoint's current one at no cost to a pick.
 *
 * <p>Drops go through {@link PickResult#withDrop}: gRPC neither retries them nor waits for ready.
 * Safe on any thread. The EDS layer calls {@link #sweep} now and then and {@link #replace} once it
 * has replaced the picker, on the SynchronizationContext, so that the counts of picks that never
 * became a stream are given back.
 */
final class ClusterRequestPicker extends SubchannelPicker {
  private static final int MAX_CACHED = 1 << 16;

  private final SubchannelPicker child;
  private final int[] dropPartsPerMillion;
  private final PickResult[] dropResults;
  private final ClusterLoadStats.DropCounter[] reportedDrops; // null without load reporting
  private final MetricCounter[] dropMetrics;
  private final InFlightRequests inFlight;
  private final long maxRequests;
  private final PickResult overLimit;
  private final MetricCounter refusalMetric;
  private final RandomGenerator random;
  private final ClusterLoadStats load;
  private final ClusterMetrics metrics;
  /** Whether each stream's outcome is counted for its endpoint's outlier detection (gRFC A50). */
  private final boolean countOutcomes;
  /** The admission of each of the child's results (pickers pre-make theirs: a few per endpoint). */
  private final ConcurrentMap<PickResult, Admission> admitted = new ConcurrentHashMap<>();

  /** Set once the picker is replaced: admissions made later hold no count. */
  private volatile boolean retired;

  /** What a pick of one subchannel returns, and counts. */
  private record Admission(PickResult result, MetricCounter localityPicks, AdmittedRequests requests) {}

  /**
   * @param load the cluster's load-report counters; null without load reporting
   * @param metrics the cluster's metrics ({@link ClusterMetrics#NONE} when off)
   */
  ClusterRequestPicker(
      String cluster,
      SubchannelPicker child,
      List<DropOverload> drops,
      InFlightRequests inFlight,
      long maxRequests,
      RandomGenerator random,
      ClusterLoadStats load,
      ClusterMetrics metrics) {
    this(cluster, child, drops, inFlight, maxRequests, random, load, metrics, false);
  }

  /**
   * @param countOutcomes whether the cluster's outlier detection counts calls: a stream's outcome is
   *     then counted for its endpoint by the tracer that counts it for the circuit breaker (nothing
   *     more per call)
   */
  ClusterRequestPicker(
      String cluster,
      SubchannelPicker child,
      List<DropOverload> drops,
      InFlightRequests inFlight,
      long maxRequests,
      RandomGenerator random,
      ClusterLoadStats load,
      ClusterMetrics metrics,
      boolean countOutcomes) {
    this.countOutcomes = countOutcomes;
    this.child = child;
    this.random = random;
    this.inFlight = inFlight;
    this.maxRequests = maxRequests;
    this.load = load;
    this.metrics = metrics;
    int n = drops.size();
    this.dropPartsPerMillion = new int[n];
    this.dropResults = new PickResult[n];
    this.reportedDrops = load == null ? null : new ClusterLoadStats.DropCounter[n];
    this.dropMetrics = new MetricCounter[n];
    for (int i = 0; i < n; i++) {
      DropOverload d = drops.get(i);
      dropPartsPerMillion[i] = d.partsPerMillion();
      dropResults[i] = PickResult.withDrop(
          Status.UNAVAILABLE.withDescription("dropped by load balancer: category " + d.category()));
      if (load != null) {
        reportedDrops[i] = load.dropCounter(d.category());
      }
      dropMetrics[i] = metrics.drops(d.category());
    }
    this.overLimit = PickResult.withDrop(Status.UNAVAILABLE.withDescription(
        "cluster " + cluster + ": max concurrent requests " + maxRequests + " exceeded"));
    this.refusalMetric = metrics.circuitBreakerRefusals();
  }

  @Override
  public PickResult pickSubchannel(PickSubchannelArgs args) {
    for (int i = 0; i < dropPartsPerMillion.length; i++) {
      if (random.nextInt(DropOverload.MILLION) < dropPartsPerMillion[i]) {
        if (reportedDrops != null) {
          reportedDrops[i].increment();
        }
        dropMetrics[i].increment();
        return dropResults[i];
      }
    }
    PickResult picked = child.pickSubchannel(args);
    if (picked.getSubchannel() == null) {
      return picked; // queued (no subchannel yet) or an error: nothing to admit
    }
    // One admission per child result, made on its first pick, so a pick allocates nothing: the
    // picker lives until the next state change, and jxds's child pickers return results made when
    // they were built (one per endpoint, least request's with its counting tracer). A child that
    // made a new result per pick would fill the map: past MAX_CACHED, admissions are not kept.
    Admission admission = admitted.get(picked);
    if (admission == null) {
      admission = newAdmission(picked);
    }
    if (!admission.requests().admit(maxRequests)) {
      if (load != null) {
        load.recordUncategorizedDrop(); // gRPC reports the circuit breaker's refusals as drops
      }
      refusalMetric.increment();
      return overLimit;
    }
    admission.localityPicks().increment();
    return admission.result();
  }

  /**
   * Gives back the counts of picks made before the previous sweep that never became a stream
   * ({@link AdmittedRequests#sweep}); on the SynchronizationContext.
   */
  void sweep() {
    for (Admission admission : admitted.values()) {
      admission.requests().sweep();
    }
  }

  /**
   * The picker is replaced (on the SynchronizationContext): a thread that still picks with it gets
   * no count held (its stream counts itself); the subchannels' requests that hold none are retired
   * now, and those that still hold some are returned, to be swept and retired later (a stream
   * picked just before may still be on its way to its headers). They keep nothing else of the
   * picker alive.
   */
  List<AdmittedRequests> replace() {
    retired = true;
    List<AdmittedRequests> holding = new ArrayList<>();
    for (Admission admission : admitted.values()) {
      if (!admission.requests().retireIfIdle()) {
        holding.add(admission.requests());
      }
    }
    return holding;
  }

  private Admission newAdmission(PickResult picked) {
    if (admitted.size() >= MAX_CACHED) {
      return admit(picked, AdmittedRequests.unheld(inFlight, calls(picked))); // nobody could give its counts back
    }
    Admission made = admit(picked, new AdmittedRequests(inFlight, calls(picked)));
    Admission prior = admitted.putIfAbsent(picked, made);
    Admission admission = prior == null ? made : prior;
    if (retired) {
      admission.requests().retire(); // replace() may have missed it
    }
    return admission;
  }

  private CallCounter calls(PickResult picked) {
    return countOutcomes ? OutlierDetector.callCounter(picked.getSubchannel()) : null;
  }

  private Admission admit(PickResult picked, AdmittedRequests requests) {
    Subchannel subchannel = picked.getSubchannel();
    Attributes attributes = subchannel.getAttributes();
    EndpointLocality tag = attributes == null ? null : attributes.get(EndpointLocality.KEY);
    // Read once per picker: a moved endpoint's next picker reads its new locality.
    LocalityId locality = tag == null ? LocalityId.EMPTY : tag.get();
    ClientStreamTracer.Factory tracers = requests.tracerFactory();
    if (load != null) {
      tracers = new BothTracers(new LoadReportingTracerFactory(load.locality(locality)), tracers);
    }
    ClientStreamTracer.Factory childTracer = picked.getStreamTracerFactory();
    if (childTracer != null) {
      tracers = new BothTracers(childTracer, tracers);
    }
    return new Admission(
        PickResult.withSubchannel(OutlierDetector.unwrap(subchannel), tracers), metrics.localityPicks(locality),
        requests);
  }

  @Override
  public String toString() {
    return "ClusterRequestPicker{drops=" + dropPartsPerMillion.length + ", maxRequests=" + maxRequests
        + ", child=" + child + "}";
  }

  /**
   * Counts each stream in its locality's load report: issued and in progress once created, then
   * succeeded or errored when closed. A tracer whose stream was never created counts nothing.
   */
  private static final class LoadReportingTracerFactory extends ClientStreamTracer.Factory {
    private final LocalityLoadStats stats;

    LoadReportingTracerFactory(LocalityLoadStats stats) {
      this.stats = stats;
    }

    @Override
    public ClientStreamTracer newClientStreamTracer(ClientStreamTracer.StreamInfo info, Metadata headers) {
      return new ClientStreamTracer() {
        private final AtomicBoolean created = new AtomicBoolean();

        @Override
        public void streamCreated(Attributes transportAttrs, Metadata h) {
          if (created.compareAndSet(false, true)) {
            stats.callStarted();
          }
        }

        @Override
        public void streamClosed(Status status) {
          if (created.compareAndSet(true, false)) {
            stats.callFinished(status.isOk());
          }
        }
      };
    }
  }

  /**
   * Keeps a tracer the child attached: it sees every event, and the counting tracer sees stream
   * creation, outbound headers and close as well.
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
        public void outboundHeaders() {
          countingTracer.outboundHeaders();
          super.outboundHeaders();
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
