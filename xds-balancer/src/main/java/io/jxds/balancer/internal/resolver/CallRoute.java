package io.jxds.balancer.internal.resolver;

import io.grpc.ClientInterceptor;
import io.grpc.Status;
import java.util.Objects;

/**
 * What the resolver decided for one call, once, when the call starts (gRFC A31): fail it, or run
 * it with a method config and an interceptor that carries the chosen cluster to the picker.
 */
public sealed interface CallRoute {
  /**
   * The call fails at once with {@code status}, wait-for-ready or not, and is never picked.
   *
   * @param status UNAVAILABLE naming what could not be routed (gRFC A54)
   */
  record Failed(Status status) implements CallRoute {
    public Failed {
      if (status.isOk()) {
        throw new IllegalArgumentException("a failed route needs an error status");
      }
    }
  }

  /**
   * The call runs.
   *
   * @param methodConfig the call's service config as the channel's own parser made it
   *     ({@code NameResolver.Args.getServiceConfigParser()}): its method config for the call's
   *     method (timeout, retry policy) applies to the call
   * @param interceptor runs the call: sets the call options the picker reads, and sees the call's
   *     headers and close
   */
  record Routed(Object methodConfig, ClientInterceptor interceptor) implements CallRoute {
    public Routed {
      Objects.requireNonNull(methodConfig, "methodConfig");
      Objects.requireNonNull(interceptor, "interceptor");
    }
  }
}
