package io.jxds.balancer.internal.dns;

import static io.grpc.ConnectivityState.CONNECTING;
import static io.grpc.ConnectivityState.READY;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;

import io.grpc.ConnectivityState;
import io.grpc.ConnectivityStateInfo;
import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer.CreateSubchannelArgs;
import io.grpc.LoadBalancer.Helper;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.Subchannel;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.model.LocalityId;
import io.jxds.api.model.LogicalDns;
import io.jxds.balancer.internal.outlier.OutlierDetector;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.picker.QueuingPicker;
import io.jxds.balancer.internal.tree.EndpointLocality;
import java.net.SocketAddress;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The endpoints of a LOGICAL_DNS cluster (gRFC A37), in place of the EDS layer's priority tree: the
 * name's addresses are ONE endpoint, one subchannel whose single address group holds them all, so
 * gRPC connects to them in order as pick-first does; the cluster's endpoint-picking policy has
 * nothing to choose between. Its locality is the empty one (region, zone and sub-zone ""), for load
 * reports.
 *
 * <ul>
 *   <li>The name does not resolve, before it ever did: TRANSIENT_FAILURE, {@code UNAVAILABLE}
 *       naming the cluster and the name (logged once per distinct reason); resolution is retried.
 *       After a success, errors keep the last addresses (as grpc-java does).
 *   <li>New addresses: the subchannel is given them ({@code updateAddresses}): a connection to an
 *       address still listed is kept.
 *   <li>The connection fails or is lost (TRANSIENT_FAILURE, or IDLE after READY): the name is
 *       resolved again (re-resolution, which the EDS layer's priorities never ask for), and an
 *       IDLE subchannel reconnects at once. TRANSIENT_FAILURE is sticky until READY (gRFC A62).
 *   <li>With the cluster's outlier detection (gRFC A50, as grpc-java applies it here), the
 *       endpoint is tracked by its set of addresses; ejected, its subchannel reports
 *       TRANSIENT_FAILURE (RPCs fail UNAVAILABLE saying so) until it is let back.
 * </ul>
 *
 * <p>Used on the SynchronizationContext only; the subchannel's listener checks it. States go to
 * {@code helper.updateBalancingState}: the EDS layer wraps them with circuit breaking and load
 * reports.
 */
public final class LogicalDnsBalancer {
  private static final Logger logger = LoggerFactory.getLogger(LogicalDnsBalancer.class);
  private static final LocalityId LOCALITY = new LocalityId("", "", "");

  private final Helper helper;
  private final SynchronizationContext syncContext;
  private final String cluster;
  private final LogicalDns name;
  private final DnsResolution dns;
  /** The cluster's outlier detection, or null. */
  private final OutlierDetector outliers;
  private Subchannel subchannel;
  private List<SocketAddress> addresses;
  private ConnectivityState state = CONNECTING;
  private String lastLogged;
  private boolean shutdown;

  /**
   * @param helper the EDS layer's child helper: creates the subchannel, hears the states
   * @param cluster the cluster's name, for errors and logs
   * @param name the cluster's {@code host:port}
   */
  public LogicalDnsBalancer(Helper helper, String cluster, LogicalDns name) {
    this(helper, cluster, name, null);
  }

  /**
   * A balancer whose endpoint is tracked by the cluster's outlier detection (gRFC A50; grpc-java
   * applies it to LOGICAL_DNS clusters too): {@code helper} must create subchannels through
   * {@code outliers}' helper; each resolution tells {@code outliers} the endpoint's addresses
   * before the subchannel gets them.
   *
   * @param outliers the cluster's outlier detection, or null for none
   */
  public LogicalDnsBalancer(Helper helper, String cluster, LogicalDns name, OutlierDetector outliers) {
    this.outliers = outliers;
    this.helper = helper;
    this.syncContext = helper.getSynchronizationContext();
    this.cluster = cluster;
    this.name = name;
    this.dns = new DnsResolution(helper, name, new DnsResolution.Listener() {
      @Override
      public void onAddresses(List<SocketAddress> resolved) {
        LogicalDnsBalancer.this.onAddresses(resolved);
      }

      @Override
      public void onError(Status error) {
        onResolutionError(error);
      }
    });
  }

  /** Reports CONNECTING and starts resolving. */
  public void start() {
    helper.updateBalancingState(CONNECTING, QueuingPicker.INSTANCE);
    dns.start();
  }

  /** The DNS name this balancer resolves. */
  public LogicalDns name() {
    return name;
  }

  /** A channel leaving IDLE: connect if there is something to connect to. */
  public void requestConnection() {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (subchannel != null) {
      subchannel.requestConnection();
    }
  }

  /** Stops resolving and closes the connection. */
  public void shutdown() {
    syncContext.throwIfNotInThisSynchronizationContext();
    shutdown = true;
    dns.shutdown();
    if (subchannel != null) {
      subchannel.shutdown();
      subchannel = null;
    }
  }

  private void onAddresses(List<SocketAddress> resolved) {
    if (shutdown || resolved.equals(addresses)) {
      return;
    }
    if (addresses == null && lastLogged != null) {
      logger.info("cluster {}: LOGICAL_DNS name {} resolves again: {}", cluster, name.target(), resolved);
    } else {
      logger.debug("cluster {}: LOGICAL_DNS name {} resolved to {}", cluster, name.target(), resolved);
    }
    addresses = resolved;
    lastLogged = null;
    if (outliers != null) {
      // gRFC A61: the endpoint is its set of addresses; other addresses make another endpoint.
      outliers.updateEndpoints(List.of(Set.copyOf(resolved)));
    }
    EquivalentAddressGroup group = new EquivalentAddressGroup(resolved);
    if (subchannel != null) {
      subchannel.updateAddresses(List.of(group));
      return;
    }
    CreateSubchannelArgs args = new EndpointLocality(LOCALITY).attachTo(
        CreateSubchannelArgs.newBuilder().setAddresses(group).build());
    Subchannel created = helper.createSubchannel(args);
    subchannel = created;
    created.start(info -> onSubchannelState(created, info));
    created.requestConnection();
  }

  private void onResolutionError(Status error) {
    if (shutdown) {
      return;
    }
    if (addresses != null) {
      logger.debug("cluster {}: LOGICAL_DNS name {} did not resolve again ({}); keeping {}",
          cluster, name.target(), error.getDescription(), addresses);
      return;
    }
    String why = "cluster " + cluster + ": LOGICAL_DNS name " + name.target() + " does not resolve: "
        + FailingPicker.describe(error);
    if (!why.equals(lastLogged)) {
      logger.warn("{}; failing RPCs", why);
      lastLogged = why;
    }
    state = TRANSIENT_FAILURE;
    helper.updateBalancingState(TRANSIENT_FAILURE,
        new FailingPicker(Status.UNAVAILABLE.withDescription(why).withCause(error.getCause())));
  }

  private void onSubchannelState(Subchannel from, ConnectivityStateInfo info) {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (shutdown || from != subchannel) {
      return;
    }
    switch (info.getState()) {
      case READY:
        state = READY;
        helper.updateBalancingState(READY, new ReadyPicker(PickResult.withSubchannel(from)));
        return;
      case IDLE:
        // The connection went away: the name may point elsewhere now; reconnect at once.
        dns.refresh();
        from.requestConnection();
        connecting();
        return;
      case CONNECTING:
        connecting();
        return;
      case TRANSIENT_FAILURE:
        dns.refresh();
        state = TRANSIENT_FAILURE;
        helper.updateBalancingState(TRANSIENT_FAILURE, new FailingPicker(Status.UNAVAILABLE
            .withDescription("cluster " + cluster + ": cannot connect to LOGICAL_DNS name " + name.target() + " "
                + addresses + ": " + FailingPicker.describe(info.getStatus()))
            .withCause(info.getStatus().getCause())));
        return;
      default:
        // SHUTDOWN: only after this balancer shut it down.
    }
  }

  private void connecting() {
    if (state != TRANSIENT_FAILURE && state != CONNECTING) {
      state = CONNECTING;
      helper.updateBalancingState(CONNECTING, QueuingPicker.INSTANCE);
    }
  }

  /** Every pick goes to the one endpoint. */
  private static final class ReadyPicker extends SubchannelPicker {
    private final PickResult result;

    ReadyPicker(PickResult result) {
      this.result = result;
    }

    @Override
    public PickResult pickSubchannel(PickSubchannelArgs args) {
      return result;
    }

    @Override
    public String toString() {
      return "ReadyPicker{" + result + "}";
    }
  }
}
