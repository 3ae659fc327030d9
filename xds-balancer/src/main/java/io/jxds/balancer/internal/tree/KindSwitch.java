package io.jxds.balancer.internal.tree;

import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.grpc.util.GracefulSwitchLoadBalancer;
import java.util.function.Function;

/**
 * A layer that runs one of several kinds of child balancer and hands over gracefully when the kind
 * changes, as gRPC's graceful switch does ({@link GracefulSwitchLoadBalancer}): the new kind's
 * balancer is built beside the old one, which keeps serving until the new one reports something
 * other than CONNECTING (or the old one stops being READY). A change within a kind is applied in
 * place and keeps the connections. Subclasses choose the kind of each config ({@link #switchTo});
 * everything else is forwarded to the child.
 */
public abstract class KindSwitch extends LoadBalancer {
  private final SynchronizationContext syncContext;
  private final GracefulSwitchLoadBalancer delegate;

  protected KindSwitch(Helper helper) {
    this.syncContext = helper.getSynchronizationContext();
    this.delegate = new GracefulSwitchLoadBalancer(helper);
  }

  /** Hands {@code resolvedAddresses} (its config unchanged) to a child of {@code kind}. */
  protected final Status switchTo(Kind kind, ResolvedAddresses resolvedAddresses) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Object switchConfig = GracefulSwitchLoadBalancer.createLoadBalancingPolicyConfig(
        kind, resolvedAddresses.getLoadBalancingPolicyConfig());
    return delegate.acceptResolvedAddresses(
        resolvedAddresses.toBuilder().setLoadBalancingPolicyConfig(switchConfig).build());
  }

  /** Throws unless called on the channel's SynchronizationContext, where every layer runs. */
  protected final void checkContext() {
    syncContext.throwIfNotInThisSynchronizationContext();
  }

  @Override
  public final void handleNameResolutionError(Status error) {
    syncContext.throwIfNotInThisSynchronizationContext();
    delegate.handleNameResolutionError(error);
  }

  @Override
  public final void requestConnection() {
    syncContext.throwIfNotInThisSynchronizationContext();
    delegate.requestConnection();
  }

  @Override
  public final void shutdown() {
    syncContext.throwIfNotInThisSynchronizationContext();
    delegate.shutdown();
  }

  /** One kind of child; equal to itself only, so a switch happens only when the kind changes. */
  public static final class Kind extends LoadBalancer.Factory {
    private final Function<Helper, LoadBalancer> create;
    private final String name;

    public Kind(Function<Helper, LoadBalancer> create, String name) {
      this.create = create;
      this.name = name;
    }

    @Override
    public LoadBalancer newLoadBalancer(Helper helper) {
      return create.apply(helper);
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
