package io.jxds.balancer.internal.resolver;

import io.grpc.Attributes;
import io.grpc.InternalConfigSelector;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The one place jxds uses gRPC's {@code @Internal} {@link InternalConfigSelector}: it hands a
 * {@link CallRouter} to the channel through the resolution result's attributes. Why there is no
 * public way, and what a gRPC upgrade must keep: ARCHITECTURE.md, "Routing each call";
 * {@code ConfigSelectorGuardTest} checks each of those points against the gRPC on the class path.
 *
 * <p>What jxds relies on: the channel reads the selector from {@link InternalConfigSelector#KEY}
 * on every resolution result and calls it once per call, before the call's first pick; a result
 * built {@link InternalConfigSelector.Result#forError forError} closes the call with that status
 * without picking; otherwise the result's config (an object of the channel's own service-config
 * parser) gives the call its method config, and the result's interceptor runs the call, so the
 * call options it sets are those every pick of the call sees.
 */
public final class ConfigSelectorAdapter {
  private ConfigSelectorAdapter() {}

  /**
   * Attaches {@code router} to a resolution result's attributes.
   *
   * @param attributes the resolution result's attributes so far
   * @param router routes every call of the channel
   * @return the attributes with the router attached
   */
  public static Attributes attach(Attributes attributes, CallRouter router) {
    return attributes.toBuilder().set(InternalConfigSelector.KEY, new Selector(router)).build();
  }

  /**
   * The router attached to {@code attributes}, for tests.
   *
   * @param attributes a resolution result's attributes
   * @return the router {@link #attach} attached, or null when there is none
   */
  public static @Nullable CallRouter attached(Attributes attributes) {
    InternalConfigSelector selector = attributes.get(InternalConfigSelector.KEY);
    return selector instanceof Selector s ? s.router : null;
  }

  private static final class Selector extends InternalConfigSelector {
    private final CallRouter router;

    Selector(CallRouter router) {
      this.router = Objects.requireNonNull(router, "router");
    }

    @Override
    public Result selectConfig(PickSubchannelArgs args) {
      CallRoute route = router.route(args);
      if (route instanceof CallRoute.Routed routed) {
        return Result.newBuilder().setConfig(routed.methodConfig()).setInterceptor(routed.interceptor()).build();
      }
      return Result.forError(((CallRoute.Failed) route).status());
    }

    @Override
    public String toString() {
      return "jxds config selector{" + router + "}";
    }
  }
}
