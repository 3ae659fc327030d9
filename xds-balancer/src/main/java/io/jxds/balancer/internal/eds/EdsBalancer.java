package io.jxds.balancer.internal.eds;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.ResourceTypes;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
import io.jxds.api.XdsClient;
import io.jxds.api.model.DropOverload;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.LocalityId;
import io.jxds.api.model.LogicalDns;
import io.jxds.balancer.internal.dns.LogicalDnsBalancer;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.metrics.BalancerMetrics;
import io.jxds.balancer.internal.metrics.ClusterMetrics;
import io.jxds.balancer.internal.outlier.OutlierDetector;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.picker.QueuingPicker;
import io.jxds.balancer.internal.picker.ThreadLocalRandomGenerator;
import io.jxds.balancer.internal.priority.PriorityBalancer;
import io.jxds.balancer.internal.priority.PriorityConfig;
import io.jxds.balancer.internal.tree.ChildHelper;
import io.jxds.balancer.internal.tree.ResourceAbsence;
import io.jxds.balancer.internal.tree.WrongConfig;
import io.jxds.client.internal.ClientInternals;
import io.jxds.client.internal.lrs.ClusterLoadStats;
import io.jxds.client.internal.lrs.LoadStatsStore;
import io.jxds.client.internal.metrics.Telemetry;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The EDS layer of one cluster: watches its ClusterLoadAssignment, feeds the priorities to a
 * {@link PriorityBalancer}, and wraps the priority tree's picker with drops and circuit breaking
 * ({@link ClusterRequestPicker}).
 *
 * <ul>
 *   <li>Weight-0 localities never reach here (the decoder drops them, and names them in
 *       {@code unweightedLocalities} for the error below); localities without a
 *       HEALTHY or UNKNOWN endpoint and priorities left empty drop out, the rest keep their order
 *       ({@link EdsPriorities#of}).
 *   <li>No usable endpoint at all: TRANSIENT_FAILURE "cluster X has no usable endpoints", and the
 *       priority tree is closed with its connections (fail fast: do not keep routing to
 *       endpoints the control plane took away); a later update brings it back.
 *   <li>The assignment does not exist: TRANSIENT_FAILURE naming it.
 *   <li>An error before any data: TRANSIENT_FAILURE with it; with data: keep serving.
 *   <li>A LOGICAL_DNS cluster (gRFC A37) watches nothing: a {@link LogicalDnsBalancer} stands in
 *       for the priority tree, under the same circuit breaking and load reports; a cluster moving
 *       between EDS and LOGICAL_DNS closes one and starts the other (RPCs wait meanwhile).
 * </ul>
 *
 * <p>Config: {@link EdsConfig}; a changed EDS service name re-watches, a changed
 * {@code maxConcurrentRequests} only rebuilds the picker.
 */
public final class EdsBalancer extends LoadBalancer {
  private static final Logger logger = LoggerFactory.getLogger(EdsBalancer.class);

  private final Helper helper;
  private final SynchronizationContext syncContext;
  /** Every picker goes to the channel through it (it sweeps the circuit-breaker counts). */
  private final PickerHandOver pickers;
  private final XdsClient xdsClient;
  private final RandomGenerator pickRandom;
  private final RandomGenerator treeRandom;
  private EdsConfig config;
  private WatchHandle watch;
  private EndpointsUpdate endpoints;
  private PriorityBalancer priorities;
  /** A LOGICAL_DNS cluster's endpoint, in place of {@code priorities}; else null. */
  private LogicalDnsBalancer dns;
  private ConnectivityState childState;
  private SubchannelPicker childPicker;
  private boolean shutdown;
  /** Pickers handed to the channel so far: one update must not hand over two. */
  private long published;
  /** The cluster's load-report counters while its {@code lrs_server} is {@code self}, else null. */
  private ClusterLoadStats load;
  private ClusterMetrics metrics = ClusterMetrics.NONE;
  /** The last priority that served (-1: none yet): a move from it is a failover or a failback. */
  private int lastServingPriority = -1;
  /** Priority trees built so far; the current one is the last: only its reports count. */
  private long trees;
  /**
   * The cluster's outlier detection (gRFC A50), made with the first config that has one and kept
   * (a later config without one turns it off): the tree's subchannels are created through it.
   */
  private OutlierDetector outliers;

  /**
   * @param pickRandom draws drops, least request's choices and random request hashes on RPC
   *     threads: must be thread-safe
   * @param treeRandom seeds the priority tree's pickers, on the SynchronizationContext
   */
  public EdsBalancer(Helper helper, XdsClient xdsClient, RandomGenerator pickRandom, RandomGenerator treeRandom) {
    this.helper = helper;
    this.syncContext = helper.getSynchronizationContext();
    this.pickers = new PickerHandOver(helper);
    this.xdsClient = xdsClient;
    this.pickRandom = pickRandom;
    this.treeRandom = treeRandom;
  }

  /** A balancer with production randomness. */
  public EdsBalancer(Helper helper, XdsClient xdsClient) {
    this(helper, xdsClient, ThreadLocalRandomGenerator.INSTANCE, RandomGenerator.getDefault());
  }

  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Object lbConfig = resolvedAddresses.getLoadBalancingPolicyConfig();
    if (!(lbConfig instanceof EdsConfig newConfig)) {
      return WrongConfig.status(name(), "an EdsConfig", lbConfig);
    }
    if (shutdown || newConfig.equals(config)) {
      return Status.OK;
    }
    EdsConfig old = config;
    config = newConfig;
    if (old == null || !old.cluster().equals(newConfig.cluster())) {
      metrics.close();
      Telemetry telemetry = ClientInternals.telemetry(xdsClient);
      metrics = telemetry.enabled()
          ? BalancerMetrics.cluster(telemetry, channelTarget(), newConfig.cluster())
          : ClusterMetrics.NONE;
    }
    load = newConfig.loadReporting() ? loadStats(newConfig) : null;
    configureOutliers(newConfig);
    metrics.inFlight(InFlightRequests.of(newConfig.cluster(), newConfig.edsServiceName())::open);
    Optional<LogicalDns> oldDns = old == null ? Optional.empty() : old.logicalDns();
    if (newConfig.logicalDns().isPresent()) {
      if (!newConfig.logicalDns().equals(oldDns)) {
        startDns(newConfig.logicalDns().get());
      } else if (childState != null) {
        publish(); // a new request limit or load reporting
      }
    } else if (old == null || oldDns.isPresent() || !old.edsServiceName().equals(newConfig.edsServiceName())) {
      closeDns();
      if (watch != null) {
        // The old assignment keeps serving until the new one arrives: no gap for RPCs.
        watch.cancel();
        logger.info("cluster {}: EDS service name changed from {} to {}",
            newConfig.cluster(), old.edsServiceName(), newConfig.edsServiceName());
      } else {
        pickers.handOver(ConnectivityState.CONNECTING, QueuingPicker.INSTANCE);
      }
      watch = xdsClient.watchEndpoints(
          newConfig.edsServiceName(), new EndpointsWatcher(newConfig.edsServiceName()),
          syncContext);
    } else if (endpoints != null) {
      applyEndpoints(); // new timers, a new request limit or a new endpoint-picking policy
    }
    return Status.OK;
  }

  /**
   * gRFC A50: every subchannel of the cluster must be wrapped to be ejected, so a tree built before
   * the cluster had {@code outlier_detection} is rebuilt once when it gets one (a rare change).
   */
  private void configureOutliers(EdsConfig c) {
    if (outliers == null && c.outlierDetection().isPresent()) {
      outliers = new OutlierDetector(c.cluster(), syncContext, helper.getScheduledExecutorService(), treeRandom);
      if (priorities != null) {
        logger.info("cluster {}: outlier detection turned on: reconnecting its endpoints", c.cluster());
        closePriorities();
        outliers.configure(c.outlierDetection().get());
        if (endpoints != null) {
          applyEndpoints(); // the last assignment serves on, through the detector, until the next
        }
      }
      if (dns != null && c.logicalDns().equals(Optional.of(dns.name()))) {
        logger.info("cluster {}: outlier detection turned on: reconnecting its endpoint", c.cluster());
        outliers.configure(c.outlierDetection().get());
        startDns(dns.name());
      }
    }
    if (outliers != null) {
      outliers.metrics(metrics);
      outliers.configure(c.outlierDetection().orElse(null));
    }
  }

  @Override
  public void handleNameResolutionError(Status error) {
    syncContext.throwIfNotInThisSynchronizationContext();
    // Resolver addresses mean nothing here; the control plane decides.
  }

  @Override
  public void requestConnection() {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (priorities != null) {
      priorities.requestConnection();
    }
    if (dns != null) {
      dns.requestConnection();
    }
  }

  /** Drops what EDS gave and resolves {@code name} instead (or a new name in place of the old). */
  private void startDns(LogicalDns name) {
    if (watch != null) {
      watch.cancel();
      watch = null;
      logger.info("cluster {}: now LOGICAL_DNS {} instead of EDS", config.cluster(), name);
    }
    endpoints = null;
    closePriorities();
    closeDns();
    long tree = ++trees;
    Helper dnsHelper = new ChildHelper(helper, (state, picker) -> onTreeState(tree, state, picker));
    // gRFC A50 applies to a LOGICAL_DNS cluster's endpoint too
    dns = new LogicalDnsBalancer(
        outliers == null ? dnsHelper : outliers.helper(dnsHelper), config.cluster(), name, outliers);
    dns.start();
  }

  private void closeDns() {
    if (dns != null) {
      dns.shutdown();
      dns = null;
      childState = null;
      childPicker = null;
    }
  }

  /** The channel's target, for metrics; a parent helper that does not say gives an empty one. */
  private String channelTarget() {
    try {
      return String.valueOf(helper.getChannelTarget());
    } catch (UnsupportedOperationException e) {
      return "";
    }
  }

  private ClusterLoadStats loadStats(EdsConfig c) {
    LoadStatsStore store = ClientInternals.loadStats(xdsClient, c.cluster()); // gRFC A47: its authority's
    if (store == null) {
      logger.debug("cluster {}: asks for load reports, but its xDS client cannot send them", c.cluster());
      return null;
    }
    return store.cluster(c.cluster(), c.edsServiceName());
  }

  @Override
  public void shutdown() {
    syncContext.throwIfNotInThisSynchronizationContext();
    shutdown = true;
    metrics.close();
    if (outliers != null) {
      outliers.shutdown();
    }
    if (watch != null) {
      watch.cancel();
      watch = null;
    }
    closePriorities();
    closeDns();
    pickers.shutdown();
  }

  private void onEndpoints(String serviceName, EndpointsUpdate update) {
    if (shutdown || config.logicalDns().isPresent() || !serviceName.equals(config.edsServiceName())) {
      return; // a late callback of a watch already replaced
    }
    endpoints = update;
    applyEndpoints();
  }

  private void applyEndpoints() {
    List<LocalityGroup> groups = EdsPriorities.of(endpoints, config.policy());
    if (groups.isEmpty()) {
      String why = whyNoEndpoints(endpoints);
      if (priorities != null) {
        logger.warn("cluster {}: no usable endpoints left in {}{}", config.cluster(), config.edsServiceName(), why);
      }
      closePriorities();
      fail("cluster " + config.cluster() + " has no usable endpoints" + why);
      return;
    }
    if (outliers != null) {
      outliers.updateEndpoints(EdsPriorities.addressSets(groups));
    }
    if (priorities == null) {
      long tree = ++trees;
      Helper treeHelper = new ChildHelper(helper, (state, picker) -> onTreeState(tree, state, picker));
      priorities = new PriorityBalancer(
          outliers == null ? treeHelper : outliers.helper(treeHelper), treeRandom, pickRandom);
      priorities.onServingPriority(this::onServingPriority);
    }
    long publishedBefore = published;
    priorities.acceptConfig(
        new PriorityConfig(config.cluster(), groups, config.failoverTimeout(), config.childRetention()));
    if (childState != null && published == publishedBefore) {
      publish(); // drops or the request limit changed, but the tree had nothing new to report
    }
  }

  /** gRFC A27: a locality without weight takes no traffic; an operator who forgot one must see it. */
  private static String whyNoEndpoints(EndpointsUpdate update) {
    List<LocalityId> unweighted = update.unweightedLocalities();
    if (unweighted.isEmpty()) {
      return "";
    }
    StringBuilder s = new StringBuilder(": localities with load_balancing_weight unset or 0 take no traffic: ");
    int shown = Math.min(unweighted.size(), 5);
    for (int i = 0; i < shown; i++) {
      s.append(i == 0 ? "" : ", ").append(unweighted.get(i));
    }
    if (unweighted.size() > shown) {
      s.append(" and ").append(unweighted.size() - shown).append(" more");
    }
    return s.toString();
  }

  private void onServingPriority(int priority) {
    metrics.servingPriority(priority, lastServingPriority);
    if (priority >= 0) {
      lastServingPriority = priority;
    }
  }

  private void onDoesNotExist(String serviceName) {
    if (shutdown || config.logicalDns().isPresent() || !serviceName.equals(config.edsServiceName())) {
      return;
    }
    endpoints = null;
    closePriorities();
    fail("cluster " + config.cluster() + ": endpoints " + serviceName + " do not exist"
        + ResourceAbsence.why(xdsClient, ResourceTypes.ENDPOINTS_TYPE_URL, serviceName));
  }

  private void onError(String serviceName, Status error) {
    if (shutdown || config.logicalDns().isPresent() || !serviceName.equals(config.edsServiceName())) {
      return;
    }
    if (endpoints == null) {
      pickers.handOver(ConnectivityState.TRANSIENT_FAILURE, new FailingPicker(error));
    } else {
      logger.debug("cluster {}: {} (still serving the last good endpoints)", config.cluster(), error.getDescription());
    }
  }

  private void publish() {
    published++;
    List<DropOverload> drops = endpoints == null ? List.of() : endpoints.dropOverloads();
    pickers.handOver(childState, new ClusterRequestPicker(
        config.cluster(),
        childPicker,
        drops,
        InFlightRequests.of(config.cluster(), config.edsServiceName()),
        config.maxConcurrentRequests(),
        pickRandom,
        load,
        metrics,
        outliers != null && outliers.counting()));
  }

  private void fail(String description) {
    pickers.handOver(ConnectivityState.TRANSIENT_FAILURE, new FailingPicker(Status.UNAVAILABLE
        .withDescription(description)));
  }

  private void closePriorities() {
    if (priorities != null) {
      priorities.shutdown();
      priorities = null;
      onServingPriority(-1); // nothing serves until a tree is built again
    }
    childState = null;
    childPicker = null;
  }

  /**
   * Drops and circuit breaking wrap whatever the priority tree reports; a closed tree's late
   * reports are ignored.
   */
  private void onTreeState(long tree, ConnectivityState newState, SubchannelPicker newPicker) {
    if (shutdown || (priorities == null && dns == null) || tree != trees) {
      return;
    }
    childState = newState;
    childPicker = newPicker;
    publish();
  }

  /** How the layer names itself in logs and errors: by its cluster, once it has one. */
  private String name() {
    return config == null ? "EDS" : "cluster " + config.cluster();
  }

  private final class EndpointsWatcher implements ResourceWatcher<EndpointsUpdate> {
    private final String serviceName;

    EndpointsWatcher(String serviceName) {
      this.serviceName = serviceName;
    }

    @Override
    public void onUpdate(EndpointsUpdate value) {
      syncContext.throwIfNotInThisSynchronizationContext();
      onEndpoints(serviceName, value);
    }

    @Override
    public void onResourceDoesNotExist(String resourceName) {
      syncContext.throwIfNotInThisSynchronizationContext();
      onDoesNotExist(serviceName);
    }

    @Override
    public void onError(Status error) {
      syncContext.throwIfNotInThisSynchronizationContext();
      EdsBalancer.this.onError(serviceName, error);
    }
  }
}
