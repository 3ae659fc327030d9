package io.jxds.balancer.internal.tree;

import io.grpc.Attributes;
import io.grpc.LoadBalancer.CreateSubchannelArgs;
import io.jxds.api.model.LocalityId;
import java.util.Objects;

/**
 * The locality an endpoint's subchannel serves in now, for load reports and metrics: attached to
 * the subchannel as the attribute {@link #KEY} by the balancer that creates it, and moved by that
 * balancer when an update moves the endpoint to another locality while keeping its subchannel
 * (ring hash and maglev keep an endpoint's subchannel across localities of one priority; the
 * locality tree gives each locality its own subchannels, so there the locality never changes).
 * gRPC's subchannel attributes are fixed at creation, hence a holder rather than the value.
 *
 * <p>Written on the SynchronizationContext, read on RPC threads by the EDS layer's picker, once per
 * picker and subchannel: the EDS layer builds a new picker after every assignment, after the
 * balancers below have moved their endpoints.
 */
public final class EndpointLocality {
  /** The subchannel attribute. */
  public static final Attributes.Key<EndpointLocality> KEY = Attributes.Key.create("io.jxds.endpointLocality");

  private volatile LocalityId current;

  /** An endpoint in {@code locality}. */
  public EndpointLocality(LocalityId locality) {
    this.current = Objects.requireNonNull(locality, "locality");
  }

  /** The locality now. */
  public LocalityId get() {
    return current;
  }

  /** Moves the endpoint to {@code locality}; on the SynchronizationContext. */
  public void set(LocalityId locality) {
    current = Objects.requireNonNull(locality, "locality");
  }

  /** {@code args} with this holder attached as {@link #KEY}. */
  public CreateSubchannelArgs attachTo(CreateSubchannelArgs args) {
    return args.toBuilder().setAttributes(args.getAttributes().toBuilder().set(KEY, this).build()).build();
  }

  @Override
  public String toString() {
    return "EndpointLocality{" + current + "}";
  }
}
