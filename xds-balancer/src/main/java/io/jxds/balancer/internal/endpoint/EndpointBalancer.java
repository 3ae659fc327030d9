package io.jxds.balancer.internal.endpoint;

import static io.grpc.ConnectivityState.CONNECTING;
import static io.grpc.ConnectivityState.READY;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.LocalityId;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.picker.OpenStreams;
import io.jxds.balancer.internal.picker.QueuingPicker;
import io.jxds.balancer.internal.picker.ThreadLocalRandomGenerator;
import io.jxds.balancer.internal.tree.EndpointLocality;
import io.jxds.balancer.internal.tree.EndpointSubchannel;
import io.jxds.balancer.internal.tree.EndpointSubchannels;
import io.jxds.balancer.internal.tree.PublishedState;
import io.jxds.balancer.internal.tree.WrongConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The leaf of the jxds tree: the endpoints of one locality, one subchannel each, picked by smooth
 * weighted round robin ({@link WeightedEndpointPicker}) or least request ({@link
 * LeastRequestPicker}, whose outstanding-RPC counts belong to the endpoints and outlive pickers).
 *
 * <ul>
 *   <li>Only HEALTHY and UNKNOWN endpoints get a subchannel (gRFC A27). Updates are diffed by
 *       address ({@link EndpointSubchannels}): a kept address keeps its subchannel, so a
 *       weight-only update touches no connection. Each subchannel carries the leaf's locality.
 *   <li>Every subchannel is asked to connect at once, and again whenever it falls IDLE, so the
 *       leaf never reports IDLE ({@link EndpointSubchannels.Connection#EAGER}).
 *   <li>State: READY if any subchannel is READY, else CONNECTING if any is connecting, else
 *       TRANSIENT_FAILURE carrying the last connection error. A subchannel that failed counts as
 *       failed until it becomes READY (sticky TRANSIENT_FAILURE, gRFC A62), so a leaf whose
 *       endpoints are all down stays TRANSIENT_FAILURE instead of flapping through CONNECTING
 *       while they retry.
 *   <li>The READY picker is rebuilt only when the READY set or a READY weight changes, and once
 *       per burst of subchannel reports.
 * </ul>
 *
 * <p>Runs on the channel's SynchronizationContext; not thread-safe otherwise.
 */
public final class EndpointBalancer extends LoadBalancer {
  private final SynchronizationContext syncContext;
  private final PublishedState published;
  private final String name;
  private final LocalityId locality;
  private final RandomGenerator random;
  private final RandomGenerator pickRandom;
  private final EndpointSubchannels endpoints;

  private LbPolicy policy = LbPolicy.ROUND_ROBIN;
  private WeightedEndpointPicker readyPicker;
  private LeastRequestPicker leastRequestPicker;
  private FailingPicker failingPicker;
  private boolean shutdown;

  /**
   * @param helper the parent's helper; subchannels are created through it
   * @param name for logs and error texts, e.g. {@code cluster[child1] {region="r", ...}}
   * @param locality the locality every subchannel serves in ({@link EndpointLocality}); null tags none
   * @param random draws each picker's start position; used on the SynchronizationContext only
   * @param pickRandom draws least request's choices on RPC threads: must be thread-safe
   */
  public EndpointBalancer(
      Helper helper, String name, LocalityId locality, RandomGenerator random, RandomGenerator pickRandom) {
    this.syncContext = helper.getSynchronizationContext();
    this.published = new PublishedState(helper);
    this.name = Objects.requireNonNull(name, "name");
    this.locality = locality;
    this.random = Objects.requireNonNull(random, "random");
    this.pickRandom = Objects.requireNonNull(pickRandom, "pickRandom");
    this.endpoints = new EndpointSubchannels(helper, name, EndpointSubchannels.Connection.EAGER, this::updateState);
  }

  /** A balancer whose subchannels carry no locality. */
  public EndpointBalancer(Helper helper, String name, RandomGenerator random, RandomGenerator pickRandom) {
    this(helper, name, null, random, pickRandom);
  }

  /** A balancer whose least-request picks draw from the RPC thread's own generator. */
  public EndpointBalancer(Helper helper, String name, RandomGenerator random) {
    this(helper, name, random, ThreadLocalRandomGenerator.INSTANCE);
  }

  /**
   * Accepts an {@link EndpointGroup} as the load-balancing policy config; the addresses of {@code
   * resolvedAddresses} are ignored (an empty list is normal).
   */
  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Object config = resolvedAddresses.getLoadBalancingPolicyConfig();
    if (!(config instanceof EndpointGroup group)) {
      return WrongConfig.status(name, "an EndpointGroup", config);
    }
    acceptConfig(group);
    return Status.OK;
  }

  /** Applies a new endpoint list: subchannels are created, kept or shut down by address. */
  public void acceptConfig(EndpointGroup group) {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (shutdown) {
      return;
    }
    policy = group.policy();
    List<EndpointSubchannels.Placement> usable = new ArrayList<>(group.endpoints().size());
    for (Endpoint endpoint : group.endpoints()) {
      if (endpoint.health().isUsable()) {
        usable.add(new EndpointSubchannels.Placement(endpoint, locality));
      }
    }
    endpoints.update(usable);
    updateState();
  }

  @Override
  public void handleNameResolutionError(Status error) {
    syncContext.throwIfNotInThisSynchronizationContext();
    // Keep serving from existing subchannels; only a leaf with none reports the error.
    if (endpoints.isEmpty()) {
      endpoints.recordError(error);
      updateState();
    }
  }

  @Override
  public void requestConnection() {
    syncContext.throwIfNotInThisSynchronizationContext();
    endpoints.requestConnections();
  }

  @Override
  public void shutdown() {
    syncContext.throwIfNotInThisSynchronizationContext();
    shutdown = true;
    endpoints.shutdown();
  }

  /** The one place that recomputes the aggregate state and picker. */
  private void updateState() {
    if (shutdown) {
      return;
    }
    List<Subchannel> ready = new ArrayList<>();
    boolean connecting = false;
    for (EndpointSubchannel endpoint : endpoints.members()) {
      if (endpoint.state() == READY) {
        ready.add(endpoint.subchannel());
      } else if (endpoint.state() == CONNECTING) {
        connecting = true;
      }
    }
    if (!ready.isEmpty()) {
      long[] weights = new long[ready.size()];
      List<OpenStreams> readyActive = new ArrayList<>(ready.size());
      int i = 0;
      for (EndpointSubchannel endpoint : endpoints.members()) {
        if (endpoint.state() == READY) {
          weights[i++] = endpoint.endpoint().weight();
          if (policy instanceof LbPolicy.LeastRequest) {
            readyActive.add(endpoint.openStreams());
          }
        }
      }
      if (policy instanceof LbPolicy.LeastRequest leastRequest) {
        if (leastRequestPicker == null || !leastRequestPicker.serves(ready, weights, leastRequest)) {
          leastRequestPicker = new LeastRequestPicker(ready, weights, readyActive, leastRequest, pickRandom);
        }
        publish(READY, leastRequestPicker);
      } else {
        if (readyPicker == null || !readyPicker.serves(ready, weights)) {
          readyPicker = new WeightedEndpointPicker(ready, weights, random);
        }
        publish(READY, readyPicker);
      }
    } else if (connecting) {
      publish(CONNECTING, QueuingPicker.INSTANCE);
    } else {
      publish(TRANSIENT_FAILURE, failingPicker());
    }
  }

  private FailingPicker failingPicker() {
    Status lastError = endpoints.lastError();
    String text;
    if (endpoints.isEmpty()) {
      text = name + ": no usable endpoint (HEALTHY or UNKNOWN)"
          + (lastError == null ? "" : "; " + FailingPicker.describe(lastError));
    } else {
      text = name + ": all " + endpoints.members().size() + " endpoints unreachable; last error: "
          + (lastError == null ? "none" : FailingPicker.describe(lastError));
    }
    if (failingPicker == null || !text.equals(failingPicker.status().getDescription())) {
      // gRFC A54: UNAVAILABLE whatever the cause, with the cause kept in text and exception.
      Status status = Status.UNAVAILABLE.withDescription(text);
      if (lastError != null && lastError.getCause() != null) {
        status = status.withCause(lastError.getCause());
      }
      failingPicker = new FailingPicker(status);
    }
    return failingPicker;
  }

  private void publish(ConnectivityState newState, SubchannelPicker newPicker) {
    published.publish(name, newState, newPicker);
  }

  @Override
  public String toString() {
    return "EndpointBalancer{" + name + ", endpoints=" + endpoints.members().size()
        + ", state=" + published.state() + "}";
  }
}
