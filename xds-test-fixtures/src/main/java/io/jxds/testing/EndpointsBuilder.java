package io.jxds.testing;

import com.google.protobuf.Any;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import java.util.function.Consumer;

/**
 * Builds an envoy v3 {@code ClusterLoadAssignment}. Obtain one from
 * {@link XdsResources#endpoints(String)}; add localities with
 * {@link #locality(String, String, String, Consumer)}.
 */
public final class EndpointsBuilder {
  private final ClusterLoadAssignment.Builder cla;

  EndpointsBuilder(String clusterName) {
    cla = ClusterLoadAssignment.newBuilder().setClusterName(clusterName);
  }

  /**
   * Adds a locality {@code (region, zone, subZone)} configured by {@code spec}. Unless the spec
   * says otherwise the locality has priority 0 and weight 1.
   *
   * @param region the locality's {@code region}
   * @param zone the locality's {@code zone}
   * @param subZone the locality's {@code sub_zone}
   * @param spec sets the locality's priority, weight and endpoints
   * @return this builder
   */
  public EndpointsBuilder locality(
      String region, String zone, String subZone, Consumer<LocalityBuilder> spec) {
    LocalityBuilder l =
        new LocalityBuilder(
            LocalityLbEndpoints.newBuilder()
                .setLocality(
                    Locality.newBuilder().setRegion(region).setZone(zone).setSubZone(subZone)));
    spec.accept(l);
    cla.addEndpoints(l.proto());
    return this;
  }

  /**
   * Adds a locality entry with no {@code locality} field at all (priority 0, weight 1 by default).
   *
   * @param spec sets the locality's priority, weight and endpoints
   * @return this builder
   */
  public EndpointsBuilder localityWithoutId(Consumer<LocalityBuilder> spec) {
    LocalityBuilder l = new LocalityBuilder(LocalityLbEndpoints.newBuilder());
    spec.accept(l);
    cla.addEndpoints(l.proto());
    return this;
  }

  /**
   * Adds a {@code policy.drop_overloads} entry: drop {@code numerator / denominator} of RPCs under
   * {@code category}.
   *
   * @param category the drop category
   * @param numerator the share's numerator
   * @param denominator the share's denominator
   * @return this builder
   */
  public EndpointsBuilder drop(
      String category, int numerator, FractionalPercent.DenominatorType denominator) {
    return drop(
        category,
        FractionalPercent.newBuilder().setNumerator(numerator).setDenominator(denominator).build());
  }

  /**
   * Adds a {@code policy.drop_overloads} entry with a raw percentage (e.g. an unknown denominator).
   *
   * @param category the drop category
   * @param percentage the share to drop
   * @return this builder
   */
  public EndpointsBuilder drop(String category, FractionalPercent percentage) {
    cla.getPolicyBuilder()
        .addDropOverloads(
            ClusterLoadAssignment.Policy.DropOverload.newBuilder()
                .setCategory(category)
                .setDropPercentage(percentage));
    return this;
  }

  /**
   * Sets {@code policy.overprovisioning_factor} (percent; envoy's default is 140).
   *
   * @param factor in percent
   * @return this builder
   */
  public EndpointsBuilder overprovisioningFactor(int factor) {
    cla.getPolicyBuilder().setOverprovisioningFactor(UInt32Value.of(factor));
    return this;
  }

  /**
   * The underlying proto builder, for fields this class has no setter for.
   *
   * @return the builder this one writes to; changes show in {@link #build()}
   */
  public ClusterLoadAssignment.Builder proto() {
    return cla;
  }

  /**
   * The {@code ClusterLoadAssignment}.
   *
   * @return the assignment as set so far
   */
  public ClusterLoadAssignment build() {
    return cla.build();
  }

  /**
   * The assignment packed in an {@code Any}, as it travels in a DiscoveryResponse.
   *
   * @return the packed assignment
   */
  public Any buildAny() {
    return Any.pack(build());
  }
}
