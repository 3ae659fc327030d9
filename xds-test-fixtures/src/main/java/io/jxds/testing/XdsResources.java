package io.jxds.testing;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.cluster.v3.LoadBalancingPolicy;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.SelfConfigSource;
import io.envoyproxy.envoy.config.core.v3.TypedExtensionConfig;
import io.envoyproxy.envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin;
import io.envoyproxy.envoy.extensions.load_balancing_policies.wrr_locality.v3.WrrLocality;

/**
 * Entry point of the fluent builders for envoy v3 xDS resources, so that tests read as
 * specifications:
 *
 * <pre>{@code
 * Cluster c = XdsResources.cluster("payments").edsServiceName("payments-eds").maxRequests(100).build();
 * ClusterLoadAssignment cla = XdsResources.endpoints("payments-eds")
 *     .locality("us-east", "1a", "", l -> l.priority(0).weight(3)
 *         .endpoint("10.0.0.1", 8080, HealthStatus.HEALTHY))
 *     .drop("lb", 25, FractionalPercent.DenominatorType.HUNDRED)
 *     .build();
 * }</pre>
 *
 * <p>The builders produce what a gRPC xDS client accepts by default and offer setters for every
 * field a test needs to make invalid. They depend only on the envoy protos, never on jxds.
 */
public final class XdsResources {
  private XdsResources() {}

  /**
   * An EDS {@code Cluster} named {@code name}, with {@code eds_config} pointing at ADS.
   *
   * @param name the cluster's {@code name}
   * @return a new builder
   */
  public static ClusterBuilder cluster(String name) {
    return new ClusterBuilder(name);
  }

  /**
   * A {@code ClusterLoadAssignment} whose {@code cluster_name} is {@code clusterName}.
   *
   * @param clusterName the assignment's {@code cluster_name}: the cluster's EDS service name
   * @return a new builder
   */
  public static EndpointsBuilder endpoints(String clusterName) {
    return new EndpointsBuilder(clusterName);
  }

  /**
   * A client-side {@code Listener} (an {@code api_listener} holding an HttpConnectionManager).
   *
   * @param name the listener's {@code name}
   * @return a new builder
   */
  public static ListenerBuilder listener(String name) {
    return new ListenerBuilder(name);
  }

  /**
   * A {@code RouteConfiguration} named {@code name}.
   *
   * @param name the route configuration's {@code name}
   * @return a new builder
   */
  public static RouteBuilder route(String name) {
    return new RouteBuilder(name);
  }

  /**
   * A {@code ConfigSource} that says "over the same ADS stream" ({@code ads: {}}).
   *
   * @return the config source
   */
  public static ConfigSource adsConfigSource() {
    return ConfigSource.newBuilder()
        .setAds(AggregatedConfigSource.getDefaultInstance())
        .setResourceApiVersion(ApiVersion.V3)
        .build();
  }

  /**
   * A {@code ConfigSource} that says "the control plane that sent this" ({@code self: {}}).
   *
   * @return the config source
   */
  public static ConfigSource selfConfigSource() {
    return ConfigSource.newBuilder()
        .setSelf(SelfConfigSource.getDefaultInstance())
        .setResourceApiVersion(ApiVersion.V3)
        .build();
  }

  /**
   * The typed {@code round_robin} policy (gRFC A52).
   *
   * @return the policy's config message
   */
  public static RoundRobin roundRobin() {
    return RoundRobin.getDefaultInstance();
  }

  /**
   * The typed {@code wrr_locality} policy wrapping {@code endpointPicking} (gRFC A52).
   *
   * @param endpointPicking the typed endpoint-picking policy, e.g. {@link #roundRobin()}
   * @return the policy's config message
   */
  public static WrrLocality wrrLocality(Message endpointPicking) {
    return WrrLocality.newBuilder()
        .setEndpointPickingPolicy(loadBalancingPolicy(endpointPicking))
        .build();
  }

  /**
   * A {@code LoadBalancingPolicy} listing {@code policies} in order, each as a
   * {@code TypedExtensionConfig} named after its message type.
   *
   * @param policies typed policies, most preferred first
   * @return the policy list
   */
  public static LoadBalancingPolicy loadBalancingPolicy(Message... policies) {
    LoadBalancingPolicy.Builder b = LoadBalancingPolicy.newBuilder();
    for (Message p : policies) {
      b.addPolicies(
          LoadBalancingPolicy.Policy.newBuilder()
              .setTypedExtensionConfig(
                  TypedExtensionConfig.newBuilder()
                      .setName(p.getDescriptorForType().getFullName())
                      .setTypedConfig(Any.pack(p))));
    }
    return b.build();
  }
}
