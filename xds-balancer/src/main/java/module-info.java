/**
 * The {@code xds_cluster} load-balancing policy and the {@code xds-cluster} name resolver, both
 * registered with gRPC as services (what {@code META-INF/services} does on the class path).
 */
@SuppressWarnings("requires-automatic")
module io.jxds.balancer {
  requires transitive io.jxds.client;
  requires io.grpc.util;
  requires org.slf4j;
  // Optional, as in io.jxds.client: without the OpenTelemetry API nothing is recorded.
  requires static io.opentelemetry.api;

  exports io.jxds.balancer;

  provides io.grpc.LoadBalancerProvider with io.jxds.balancer.internal.XdsClusterLoadBalancerProvider;
  provides io.grpc.NameResolverProvider with io.jxds.balancer.XdsClusterNameResolverProvider;
}
