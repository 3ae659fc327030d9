package io.jxds.balancer.internal.resolver;

import io.grpc.Status;
import java.util.Objects;

/** A {@link RouteTable}'s answer for one call. */
public sealed interface RouteChoice {
  /**
   * The call goes to {@code cluster}, with its route's timeout, retries and request hash.
   *
   * @param cluster one of the table's {@link RouteTable#clusters()}
   * @param config what the route sets on the call ({@link RouteCallConfig#NONE}: nothing)
   */
  record ToCluster(String cluster, RouteCallConfig config) implements RouteChoice {
    public ToCluster {
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(config, "config");
    }

    /** The call goes to {@code cluster}, with nothing set by its route. */
    public ToCluster(String cluster) {
      this(cluster, RouteCallConfig.NONE);
    }
  }

  /**
   * The call fails at once (no route matched, the route cannot be served, ...).
   *
   * @param status UNAVAILABLE naming what could not be routed: the listener, the virtual host, the
   *     route (gRFC A54)
   */
  record Fail(Status status) implements RouteChoice {
    public Fail {
      if (status.isOk()) {
        throw new IllegalArgumentException("a failing choice needs an error status");
      }
    }
  }
}
