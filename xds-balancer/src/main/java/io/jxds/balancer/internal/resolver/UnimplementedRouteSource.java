package io.jxds.balancer.internal.resolver;

import io.grpc.Status;

/**
 * The default {@link RouteSource} until listener and route watching is built: it fails every call,
 * naming the listener and the target that does work today.
 */
final class UnimplementedRouteSource implements RouteSource {
  static final RouteSource.Factory FACTORY = (request, sink) -> {
    sink.onError(Status.UNAVAILABLE.withDescription(request.target() + ": listener " + request.listenerName()
        + ": routing by LDS and RDS is not implemented in this jxds yet; name a cluster with xds-cluster:///CLUSTER"));
    return new UnimplementedRouteSource();
  };

  private UnimplementedRouteSource() {}

  @Override
  public void shutdown() {}
}
