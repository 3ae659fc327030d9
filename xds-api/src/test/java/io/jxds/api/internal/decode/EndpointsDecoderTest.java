package io.jxds.api.internal.decode;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.DRAINING;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.envoyproxy.envoy.type.v3.FractionalPercent.DenominatorType.HUNDRED;
import static io.envoyproxy.envoy.type.v3.FractionalPercent.DenominatorType.MILLION;
import static io.envoyproxy.envoy.type.v3.FractionalPercent.DenominatorType.TEN_THOUSAND;
import static io.jxds.testing.XdsResources.endpoints;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Struct;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.core.v3.Pipe;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.DropOverload;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.HealthStatus;
import io.jxds.api.model.Locality;
import io.jxds.api.model.LocalityId;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One test per ClusterLoadAssignment validation rule (gRFC A27), valid and invalid. */
class EndpointsDecoderTest {
  private static final long MAX = 0xFFFF_FFFFL;

  @Test
  void assignmentDecodesToTheExactModel() throws Exception {
    ClusterLoadAssignment cla =
        endpoints("payments-eds")
            .locality("us-east", "1a", "", l -> l.priority(0).weight(3)
                .endpoint("10.0.0.1", 8080, HEALTHY)
                .endpoint("10.0.0.2", 8080, DRAINING, 5, "b.example"))
            .locality("us-west", "", "", l -> l.priority(1).weight(MAX).endpoint("::1", 9090, HEALTHY))
            .drop("lb", 25, HUNDRED)
            .overprovisioningFactor(200)
            .build();
    assertThat(decode(cla))
        .isEqualTo(
            new EndpointsUpdate(
                "payments-eds",
                List.of(
                    new Locality(
                        new LocalityId("us-east", "1a", ""),
                        0,
                        3,
                        List.of(
                            new Endpoint(addr("10.0.0.1", 8080), HealthStatus.HEALTHY, 1, ""),
                            new Endpoint(addr("10.0.0.2", 8080), HealthStatus.DRAINING, 5, "b.example"))),
                    new Locality(
                        new LocalityId("us-west", "", ""),
                        1,
                        MAX,
                        List.of(new Endpoint(addr("::1", 9090), HealthStatus.HEALTHY, 1, "")))),
                List.of(new DropOverload("lb", 250_000)),
                200));
  }

  @Test
  void emptyClusterNameIsRejected() {
    assertThatThrownBy(() -> decode(endpoints("").build()))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("ClusterLoadAssignment \"\": cluster_name must not be empty, got \"\"");
  }

  @Test
  void localityWithUnsetOrZeroWeightIsIgnored() throws Exception {
    ClusterLoadAssignment cla =
        endpoints("e")
            .locality("a", "", "", l -> l.noWeight().endpoint("10.0.0.1", 80, HEALTHY))
            .locality("b", "", "", l -> l.weight(0).endpoint("10.0.0.1", 80, HEALTHY))
            .locality("c", "", "", l -> l.weight(2).endpoint("10.0.0.1", 80, HEALTHY))
            .build();
    // The ignored localities are not validated either: their duplicate address does not count.
    EndpointsUpdate update = decode(cla);
    assertThat(update.localities()).extracting(Locality::id)
        .containsExactly(new LocalityId("c", "", ""));
    assertThat(update.unweightedLocalities()).as("kept, so that an error can name them")
        .containsExactly(new LocalityId("a", "", ""), new LocalityId("b", "", ""));
  }

  @Test
  void ignoredLocalitiesAreRemovedBeforeTheContiguityCheck() {
    ClusterLoadAssignment cla =
        endpoints("e")
            .locality("a", "", "", l -> l.priority(0).endpoint("10.0.0.1", 80, HEALTHY))
            .locality("b", "", "", l -> l.priority(1).weight(0).endpoint("10.0.0.2", 80, HEALTHY))
            .locality("c", "", "", l -> l.priority(2).endpoint("10.0.0.3", 80, HEALTHY))
            .build();
    assertNack(cla,
        "endpoints[].priority must be contiguous from 0 (weight-0 localities do not count), got priorities up to 2 "
            + "without 1");
  }

  @Test
  void priorityGapIsRejectedNamingTheMissingPriority() {
    assertNack(
        endpoints("e").locality("a", "", "", l -> l.priority(1).endpoint("10.0.0.1", 80, HEALTHY)).build(),
        "endpoints[].priority must be contiguous from 0 (weight-0 localities do not count), got priorities up to 1 "
            + "without 0");
    assertNack(
        endpoints("e")
            .locality("a", "", "", l -> l.priority(0))
            .locality("b", "", "", l -> l.priority(-1))
            .build(),
        "endpoints[].priority must be contiguous from 0 (weight-0 localities do not count), got priorities up to "
            + "4294967295 without 1");
  }

  @Test
  void contiguousPrioritiesInAnyOrderAreAccepted() throws Exception {
    ClusterLoadAssignment cla =
        endpoints("e")
            .locality("a", "", "", l -> l.priority(2))
            .locality("b", "", "", l -> l.priority(0))
            .locality("c", "", "", l -> l.priority(1))
            .build();
    assertThat(decode(cla).priorityCount()).isEqualTo(3);
  }

  @Test
  void localityWeightsAboveUint32WithinOnePriorityAreRejected() {
    assertNack(
        endpoints("e")
            .locality("a", "", "", l -> l.weight(MAX))
            .locality("b", "", "", l -> l.weight(1))
            .build(),
        "endpoints[].load_balancing_weight must sum to at most 4294967295 within priority 0, got 4294967296");
  }

  @Test
  void localityWeightsSumToUint32MaxOrAcrossPrioritiesAreAccepted() throws Exception {
    ClusterLoadAssignment cla =
        endpoints("e")
            .locality("a", "", "", l -> l.weight(MAX - 1))
            .locality("b", "", "", l -> l.weight(1))
            .locality("c", "", "", l -> l.priority(1).weight(MAX))
            .build();
    assertThat(decode(cla).localities()).extracting(Locality::weight)
        .containsExactly(MAX - 1, 1L, MAX);
  }

  @Test
  void sameLocalityTwiceInOnePriorityIsRejected() {
    assertNack(
        endpoints("e").locality("a", "z", "", l -> {}).locality("a", "z", "", l -> {}).build(),
        "endpoints[1].locality must be unique within priority 0, got {region=\"a\", zone=\"z\", sub_zone=\"\"} again");
  }

  @Test
  void sameLocalityInDifferentPrioritiesIsAccepted() throws Exception {
    ClusterLoadAssignment cla =
        endpoints("e").locality("a", "", "", l -> l.priority(0)).locality("a", "", "", l -> l.priority(1)).build();
    assertThat(decode(cla).localities()).hasSize(2);
  }

  @Test
  void missingLocalityFieldIsTheEmptyLocality() throws Exception {
    ClusterLoadAssignment cla = endpoints("e").localityWithoutId(l -> l.endpoint("10.0.0.1", 80, HEALTHY)).build();
    assertThat(decode(cla).localities().get(0).id()).isEqualTo(LocalityId.EMPTY);
  }

  @Test
  void ipv4AndIpv6LiteralsAreAccepted() throws Exception {
    ClusterLoadAssignment cla =
        endpoints("e")
            .locality("a", "", "", l -> l
                .endpoint("192.168.1.254", 1, HEALTHY)
                .endpoint("2001:db8::8a2e:370:7334", 65535, HEALTHY)
                .endpoint("::ffff:10.1.2.3", 443, HEALTHY))
            .build();
    assertThat(decode(cla).localities().get(0).endpoints())
        .extracting(Endpoint::address)
        .containsExactly(addr("192.168.1.254", 1), addr("2001:db8::8a2e:370:7334", 65535), addr("10.1.2.3", 443));
  }

  @Test
  void envoyLbHashKeyStringIsTheEndpointsHashKey() throws Exception {
    ClusterLoadAssignment cla =
        endpoints("e")
            .locality("a", "", "", l -> l
                .lbEndpoint(withMetadata("10.0.0.1", "envoy.lb", "hash_key", Value.newBuilder().setStringValue("k1")))
                .lbEndpoint(withMetadata("10.0.0.2", "envoy.lb", "hash_key", Value.newBuilder().setNumberValue(7)))
                .lbEndpoint(withMetadata("10.0.0.3", "istio", "hash_key", Value.newBuilder().setStringValue("k3")))
                .lbEndpoint(withMetadata("10.0.0.4", "envoy.lb", "other", Value.newBuilder().setStringValue("k4")))
                .endpoint("10.0.0.5", 80, HEALTHY))
            .build();
    // gRFC A76: only a string hash_key under envoy.lb counts; anything else means "use the address".
    assertThat(decode(cla).localities().get(0).endpoints())
        .extracting(Endpoint::hashKey)
        .containsExactly("k1", "", "", "", "");
  }

  private static LbEndpoint withMetadata(String ip, String filter, String key, Value.Builder value) {
    return LbEndpoint.newBuilder()
        .setHealthStatus(HEALTHY)
        .setEndpoint(io.envoyproxy.envoy.config.endpoint.v3.Endpoint.newBuilder()
            .setAddress(Address.newBuilder()
                .setSocketAddress(SocketAddress.newBuilder().setAddress(ip).setPortValue(80))))
        .setMetadata(Metadata.newBuilder().putFilterMetadata(filter, Struct.newBuilder().putFields(key, value.build())
            .build()))
        .build();
  }

  @Test
  void hostnameIsRejected() {
    assertNack(
        one(l -> l.endpoint("backend.example.com", 80, HEALTHY)),
        "endpoints[0].lb_endpoints[0].endpoint.address.socket_address.address must be an IP literal, got "
            + "\"backend.example.com\"");
    assertNack(
        one(l -> l.endpoint("localhost", 80, HEALTHY)),
        "endpoints[0].lb_endpoints[0].endpoint.address.socket_address.address must be an IP literal, got "
            + "\"localhost\"");
  }

  @Test
  void portOutsideOneTo65535IsRejected() {
    assertNack(
        one(l -> l.endpoint("10.0.0.1", 0, HEALTHY)),
        "endpoints[0].lb_endpoints[0].endpoint.address.socket_address.port_value must be in [1, 65535], got 0");
    assertNack(
        one(l -> l.endpoint("10.0.0.1", 65536, HEALTHY)),
        "endpoints[0].lb_endpoints[0].endpoint.address.socket_address.port_value must be in [1, 65535], got 65536");
  }

  @Test
  void namedPortIsRejected() {
    Address named =
        Address.newBuilder().setSocketAddress(SocketAddress.newBuilder().setAddress("10.0.0.1").setNamedPort("http"))
            .build();
    assertNack(
        one(l -> l.endpointAddress(named)),
        "endpoints[0].lb_endpoints[0].endpoint.address.socket_address.port_value must be set, got named_port \"http\"");
  }

  @Test
  void resolverNameIsRejected() {
    Address resolved =
        Address.newBuilder()
            .setSocketAddress(SocketAddress.newBuilder().setAddress("10.0.0.1").setPortValue(80).setResolverName("dns"))
            .build();
    assertNack(
        one(l -> l.endpointAddress(resolved)),
        "endpoints[0].lb_endpoints[0].endpoint.address.socket_address.resolver_name must be empty, got \"dns\"");
  }

  @Test
  void pipeAndMissingAddressAreRejected() {
    assertNack(
        one(l -> l.endpointAddress(Address.newBuilder().setPipe(Pipe.newBuilder().setPath("/tmp/s")).build())),
        "endpoints[0].lb_endpoints[0].endpoint.address.socket_address must be set, got pipe");
    assertNack(
        one(l -> l.endpointAddress(Address.getDefaultInstance())),
        "endpoints[0].lb_endpoints[0].endpoint.address.socket_address must be set, got unset");
    assertNack(
        one(l -> l.lbEndpoint(LbEndpoint.newBuilder().setEndpointName("named").build())),
        "endpoints[0].lb_endpoints[0].endpoint must be set, got endpoint_name");
  }

  @Test
  void sameAddressTwiceAnywhereIsRejected() {
    assertNack(
        endpoints("e")
            .locality("a", "", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY))
            .locality("b", "", "", l -> l.priority(1).endpoint("10.0.0.2", 80, HEALTHY).endpoint("10.0.0.1", 80,
                DRAINING))
            .build(),
        "endpoints[1].lb_endpoints[1].endpoint.address must be unique in the assignment, got 10.0.0.1:80 again");
    assertNack(
        one(l -> l.endpoint("::1", 80, HEALTHY).endpoint("0:0:0:0:0:0:0:1", 80, HEALTHY)),
        "endpoints[0].lb_endpoints[1].endpoint.address must be unique in the assignment, got [0:0:0:0:0:0:0:1]:80 "
            + "again");
  }

  @Test
  void ipv4MappedIpv6IsTheSameAddressAsPlainIpv4() {
    assertNack(
        one(l -> l.endpoint("10.0.0.1", 80, HEALTHY).endpoint("::ffff:10.0.0.1", 80, HEALTHY)),
        "endpoints[0].lb_endpoints[1].endpoint.address must be unique in the assignment, got 10.0.0.1:80 again");
  }

  @Test
  void duplicateIsFoundAmongManyAddresses() {
    ClusterLoadAssignment cla =
        one(l -> {
          for (int k = 0; k < 2000; k++) {
            l.endpoint("2001:db8::" + Integer.toHexString(k), 8080, HEALTHY);
          }
          l.endpoint("2001:db8::7cf", 8080, HEALTHY);
        });
    assertNack(
        cla,
        "endpoints[0].lb_endpoints[2000].endpoint.address must be unique in the assignment, got "
            + "[2001:db8:0:0:0:0:0:7cf]:8080 again");
  }

  @Test
  void sameIpOnDifferentPortsIsAccepted() throws Exception {
    assertThat(decode(one(l -> l.endpoint("10.0.0.1", 80, HEALTHY).endpoint("10.0.0.1", 81, HEALTHY)))
            .localities().get(0).endpoints())
        .hasSize(2);
  }

  @Test
  void additionalAddressesFollowThePrimaryAddressInOrder() throws Exception {
    ClusterLoadAssignment cla =
        one(l -> l.endpoint("10.0.0.1", 80, HEALTHY, 7).additionalAddress("2001:db8::1", 80)
            .additionalAddress("10.0.1.1", 8080)
            .endpoint("10.0.0.2", 80, HEALTHY));
    List<Endpoint> endpoints = decode(cla).localities().get(0).endpoints();
    assertThat(endpoints.get(0))
        .isEqualTo(new Endpoint(addr("10.0.0.1", 80), HealthStatus.HEALTHY, 7, "", "",
            List.of(addr("2001:db8::1", 80), addr("10.0.1.1", 8080))));
    assertThat(endpoints.get(0).addresses())
        .containsExactly(addr("10.0.0.1", 80), addr("2001:db8::1", 80), addr("10.0.1.1", 8080));
    assertThat(endpoints.get(1).additionalAddresses()).isEmpty();
    assertThat(endpoints.get(1).addresses()).containsExactly(addr("10.0.0.2", 80));
  }

  @Test
  void additionalAddressThatIsNotAnIpLiteralIsRejected() {
    assertNack(
        one(l -> l.endpoint("10.0.0.1", 80, HEALTHY).endpoint("10.0.0.2", 80, HEALTHY)
            .additionalAddress("::1", 80).additionalAddress("backend.example", 80)),
        "endpoints[0].lb_endpoints[1].endpoint.additional_addresses[1].address.socket_address.address must be an IP "
            + "literal, got \"backend.example\"");
  }

  @Test
  void additionalAddressWithoutASocketAddressIsRejected() {
    assertNack(
        one(l -> l.endpoint("10.0.0.1", 80, HEALTHY).additionalAddress(Address.getDefaultInstance())),
        "endpoints[0].lb_endpoints[0].endpoint.additional_addresses[0].address.socket_address must be set, got unset");
    assertNack(
        one(l -> l.endpoint("10.0.0.1", 80, HEALTHY)
            .additionalAddress(Address.newBuilder().setPipe(Pipe.newBuilder().setPath("/tmp/s")).build())),
        "endpoints[0].lb_endpoints[0].endpoint.additional_addresses[0].address.socket_address must be set, got pipe");
    LbEndpoint noAddress = LbEndpoint.newBuilder()
        .setEndpoint(io.envoyproxy.envoy.config.endpoint.v3.Endpoint.newBuilder()
            .setAddress(Address.newBuilder().setSocketAddress(SocketAddress.newBuilder().setAddress("10.0.0.1")
                .setPortValue(80)))
            .addAdditionalAddresses(
                io.envoyproxy.envoy.config.endpoint.v3.Endpoint.AdditionalAddress.getDefaultInstance()))
        .build();
    assertNack(
        one(l -> l.lbEndpoint(noAddress)),
        "endpoints[0].lb_endpoints[0].endpoint.additional_addresses[0].address must be set, got unset");
  }

  @Test
  void additionalAddressPortAndResolverAreCheckedAsThePrimarys() {
    assertNack(
        one(l -> l.endpoint("10.0.0.1", 80, HEALTHY).additionalAddress("::1", 0)),
        "endpoints[0].lb_endpoints[0].endpoint.additional_addresses[0].address.socket_address.port_value must be in "
            + "[1, 65535], got 0");
    assertNack(
        one(l -> l.endpoint("10.0.0.1", 80, HEALTHY).additionalAddress(Address.newBuilder()
            .setSocketAddress(SocketAddress.newBuilder().setAddress("::1").setNamedPort("http")).build())),
        "endpoints[0].lb_endpoints[0].endpoint.additional_addresses[0].address.socket_address.port_value must be set, "
            + "got named_port \"http\"");
    assertNack(
        one(l -> l.endpoint("10.0.0.1", 80, HEALTHY).additionalAddress(Address.newBuilder()
            .setSocketAddress(SocketAddress.newBuilder().setAddress("::1").setPortValue(80).setResolverName("dns"))
            .build())),
        "endpoints[0].lb_endpoints[0].endpoint.additional_addresses[0].address.socket_address.resolver_name must be "
            + "empty, got \"dns\"");
  }

  @Test
  void additionalAddressMustBeUniqueAcrossEveryAddressOfTheAssignment() {
    // gRFC A61: an endpoint is its set of addresses; one address in two endpoints would be two
    // backends behind one connection. As for primary addresses, a NACK (gRPC C++ does the same).
    assertNack(
        endpoints("e")
            .locality("a", "", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY).additionalAddress("::1", 80))
            .locality("b", "", "", l -> l.priority(1).endpoint("10.0.0.2", 80, HEALTHY)
                .additionalAddress("0:0:0:0:0:0:0:1", 80))
            .build(),
        "endpoints[1].lb_endpoints[0].endpoint.additional_addresses[0].address must be unique in the assignment, "
            + "got [0:0:0:0:0:0:0:1]:80 again");
    assertNack(
        one(l -> l.endpoint("10.0.0.1", 80, HEALTHY).additionalAddress("10.0.0.1", 80)),
        "endpoints[0].lb_endpoints[0].endpoint.additional_addresses[0].address must be unique in the assignment, "
            + "got 10.0.0.1:80 again");
    assertNack(
        one(l -> l.endpoint("10.0.0.1", 80, HEALTHY).additionalAddress("::1", 80).endpoint("::1", 80, HEALTHY)),
        "endpoints[0].lb_endpoints[1].endpoint.address must be unique in the assignment, got [0:0:0:0:0:0:0:1]:80 "
            + "again");
  }

  @Test
  void additionalAddressesOfAnIgnoredLocalityAreNotLookedAt() throws Exception {
    ClusterLoadAssignment cla =
        endpoints("e")
            .locality("a", "", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY))
            .locality("b", "", "", l -> l.noWeight().endpoint("10.0.0.2", 80, HEALTHY)
                .additionalAddress("not-an-ip", 80))
            .build();
    assertThat(decode(cla).localities()).hasSize(1);
  }

  @Test
  void endpointWeightUnsetIsOne() throws Exception {
    ClusterLoadAssignment cla =
        one(l -> l.endpoint("10.0.0.1", 80, HEALTHY).endpoint("10.0.0.2", 80, HEALTHY, 1).endpoint("10.0.0.3", 80,
            HEALTHY, MAX - 2));
    assertThat(decode(cla).localities().get(0).endpoints())
        .extracting(Endpoint::weight)
        .containsExactly(1L, 1L, MAX - 2);
  }

  @Test
  void endpointWeightZeroIsRejected() {
    // LbEndpoint.load_balancing_weight is uint32 gte 1 in the xDS API (Envoy rejects 0, as gRPC
    // C++ does); read as 1 it would keep sending traffic to an endpoint an operator is draining.
    assertNack(
        one(l -> l.endpoint("10.0.0.1", 80, HEALTHY).endpoint("10.0.0.2", 80, HEALTHY, 0)),
        "endpoints[0].lb_endpoints[1].load_balancing_weight must be at least 1, got 0");
  }

  @Test
  void endpointWeightZeroInAnIgnoredLocalityIsNotLookedAt() throws Exception {
    ClusterLoadAssignment cla =
        endpoints("e")
            .locality("a", "", "", l -> l.weight(0).endpoint("10.0.0.1", 80, HEALTHY, 0))
            .locality("b", "", "", l -> l.weight(1).endpoint("10.0.0.2", 80, HEALTHY))
            .build();
    assertThat(decode(cla).localities()).extracting(Locality::id).containsExactly(new LocalityId("b", "", ""));
  }

  @Test
  void endpointWeightsAboveUint32WithinOneLocalityAreRejected() {
    assertNack(
        one(l -> l.endpoint("10.0.0.1", 80, HEALTHY, MAX).endpoint("10.0.0.2", 80, HEALTHY)),
        "endpoints[0].lb_endpoints[].load_balancing_weight must sum to at most 4294967295, got 4294967296");
  }

  @Test
  void everyHealthStatusIsKept() throws Exception {
    ClusterLoadAssignment cla =
        one(l -> {
          int port = 1;
          for (io.envoyproxy.envoy.config.core.v3.HealthStatus h : List.of(
              io.envoyproxy.envoy.config.core.v3.HealthStatus.UNKNOWN,
              io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY,
              io.envoyproxy.envoy.config.core.v3.HealthStatus.UNHEALTHY,
              io.envoyproxy.envoy.config.core.v3.HealthStatus.DRAINING,
              io.envoyproxy.envoy.config.core.v3.HealthStatus.TIMEOUT,
              io.envoyproxy.envoy.config.core.v3.HealthStatus.DEGRADED)) {
            l.endpoint("10.0.0.1", port++, h);
          }
          l.lbEndpoint(l.proto().getLbEndpoints(0).toBuilder().setHealthStatusValue(77)
              .setEndpoint(l.proto().getLbEndpoints(0).getEndpoint().toBuilder()
                  .setAddress(Address.newBuilder().setSocketAddress(
                      SocketAddress.newBuilder().setAddress("10.0.0.9").setPortValue(1))))
              .build());
        });
    assertThat(decode(cla).localities().get(0).endpoints())
        .extracting(Endpoint::health)
        .containsExactly(
            HealthStatus.UNKNOWN, HealthStatus.HEALTHY, HealthStatus.UNHEALTHY,
            HealthStatus.DRAINING, HealthStatus.TIMEOUT, HealthStatus.DEGRADED,
            HealthStatus.UNHEALTHY);
  }

  @Test
  void dropsAreNormalisedToPartsPerMillionAndClamped() throws Exception {
    ClusterLoadAssignment cla =
        endpoints("e")
            .drop("a", 25, HUNDRED)
            .drop("b", 25, TEN_THOUSAND)
            .drop("c", 25, MILLION)
            .drop("d", 101, HUNDRED)
            .drop("e", -1, MILLION)
            .build();
    assertThat(decode(cla).dropOverloads())
        .containsExactly(
            new DropOverload("a", 250_000),
            new DropOverload("b", 2_500),
            new DropOverload("c", 25),
            new DropOverload("d", 1_000_000),
            new DropOverload("e", 1_000_000));
  }

  @Test
  void unknownDropDenominatorIsRejected() {
    assertNack(
        endpoints("e").drop("lb", FractionalPercent.newBuilder().setNumerator(1).setDenominatorValue(9).build())
            .build(),
        "policy.drop_overloads[0].drop_percentage.denominator must be HUNDRED, TEN_THOUSAND or MILLION, got 9");
  }

  @Test
  void overprovisioningFactorIsKeptWithDefault140() throws Exception {
    assertThat(decode(endpoints("e").build()).overprovisioningFactor()).isEqualTo(140);
    assertThat(decode(endpoints("e").overprovisioningFactor(100).build()).overprovisioningFactor())
        .isEqualTo(100);
    ClusterLoadAssignment huge = endpoints("e").build().toBuilder()
        .setPolicy(ClusterLoadAssignment.Policy.newBuilder().setOverprovisioningFactor(UInt32Value.of(-1))).build();
    assertNack(huge, "policy.overprovisioning_factor must be at most 2147483647, got 4294967295");
  }

  /** The decoder under test; {@link EndpointsDecoderBytesTest} runs every rule through the bytes. */
  EndpointsUpdate decode(ClusterLoadAssignment cla) throws XdsResourceException {
    return EndpointsDecoder.decode(cla);
  }

  private static ClusterLoadAssignment one(java.util.function.Consumer<io.jxds.testing.LocalityBuilder> spec) {
    return endpoints("e").locality("a", "", "", spec).build();
  }

  private static InetSocketAddress addr(String ip, int port) throws Exception {
    return new InetSocketAddress(InetAddress.getByName(ip), port); // literals only: no DNS
  }

  private void assertNack(ClusterLoadAssignment cla, String expected) {
    assertThatThrownBy(() -> decode(cla))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("ClusterLoadAssignment \"" + cla.getClusterName() + "\": " + expected)
        .extracting(e -> ((XdsResourceException) e).resourceName())
        .isEqualTo(cla.getClusterName());
  }
}
