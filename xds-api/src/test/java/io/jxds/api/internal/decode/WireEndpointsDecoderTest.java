package io.jxds.api.internal.decode;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.jxds.testing.XdsResources.endpoints;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.UnknownFieldSet;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.Locality;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one-pass reader: which inputs it answers itself, and that its answer is the tree's. */
class WireEndpointsDecoderTest {
  @Test
  void largeAssignmentIsDecodedInOnePass() throws Exception {
    var b = endpoints("big");
    for (int l = 0; l < 30; l++) {
      int locality = l;
      b.locality("r", "z" + l, "", spec -> {
        spec.priority(locality % 3).weight(1 + locality);
        for (int e = 0; e < 50; e++) {
          spec.endpoint(e % 5 == 0 ? "2001:db8:" + locality + "::" + (e + 1) : "10." + locality + ".0." + (e + 1), 8080,
              HEALTHY, 1 + e % 4);
        }
      });
    }
    assertOnePass(b.drop("d", 3, FractionalPercent.DenominatorType.MILLION).build());
  }

  @Test
  void concatenatedAssignmentsReadAsProtobufMergesThem() throws Exception {
    // Without policies there is nothing to merge: the last name wins and localities append.
    ClusterLoadAssignment a = endpoints("first").locality("a", "", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY))
        .build();
    ClusterLoadAssignment b = endpoints("second").locality("b", "", "", l -> l.endpoint("10.0.0.2", 80, HEALTHY))
        .build();
    ByteString both = a.toByteString().concat(b.toByteString());
    EndpointsUpdate update = EndpointsDecoder.decodeInOnePass(both).orElseThrow();
    assertThat(update).isEqualTo(EndpointsDecoder.decode(ClusterLoadAssignment.parseFrom(both)));
    assertThat(update.clusterName()).isEqualTo("second");
    assertThat(update.localities()).hasSize(2);
  }

  @Test
  void twoPoliciesAreMergedByTheFallback() throws Exception {
    // policy appears twice: protobuf merges the second into the first (drops append, factor replaced).
    ClusterLoadAssignment a = endpoints("e").drop("x", 1, FractionalPercent.DenominatorType.HUNDRED).build();
    ClusterLoadAssignment b = endpoints("e").overprovisioningFactor(100).build();
    ByteString both = a.toByteString().concat(b.toByteString());
    assertThat(EndpointsDecoder.decodeInOnePass(both)).isEmpty();
    EndpointsUpdate update = EndpointsDecoder.decode(both);
    assertThat(update.dropOverloads()).hasSize(1);
    assertThat(update.overprovisioningFactor()).isEqualTo(100);
  }

  @Test
  void unknownFieldsAreSkipped() throws Exception {
    UnknownFieldSet extra =
        UnknownFieldSet.newBuilder()
            .addField(1000, UnknownFieldSet.Field.newBuilder().addFixed64(5).addLengthDelimited(ByteString
                .copyFromUtf8("?")).build())
            .build();
    ClusterLoadAssignment cla = endpoints("e").locality("a", "", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY)).build();
    LocalityLbEndpoints entry = cla.getEndpoints(0);
    LbEndpoint lb = entry.getLbEndpoints(0);
    cla = cla.toBuilder()
        .setUnknownFields(extra)
        .setEndpoints(0, entry.toBuilder().setUnknownFields(extra).setLbEndpoints(0, lb.toBuilder()
            .setUnknownFields(extra)
            .setEndpoint(lb.getEndpoint().toBuilder().setUnknownFields(extra))))
        .build();
    assertOnePass(cla);
  }

  @Test
  void endpointMetadataAndHealthCheckConfigAreReadInOnePass() throws Exception {
    LbEndpoint lb =
        LbEndpoint.newBuilder()
            .setEndpoint(io.envoyproxy.envoy.config.endpoint.v3.Endpoint.newBuilder()
                .setAddress(socket("10.0.0.1", 80))
                .setHealthCheckConfig(io.envoyproxy.envoy.config.endpoint.v3.Endpoint.HealthCheckConfig.newBuilder()
                    .setPortValue(9000).setHostname("hc")))
            .setMetadata(Metadata.newBuilder().putFilterMetadata("istio", struct(3)))
            .build();
    assertOnePass(endpoints("e").locality("a", "", "", l -> l.lbEndpoint(lb)).build());
  }

  @Test
  void additionalAddressesAreReadInOnePass() throws Exception {
    assertOnePass(endpoints("e").locality("a", "", "", l -> l
        .endpoint("10.0.0.1", 80, HEALTHY).additionalAddress("::1", 80).additionalAddress("10.0.0.9", 81)
        .endpoint("10.0.0.2", 80, HEALTHY)).build());
  }

  @Test
  void fieldsThatChangeTheAnswerAreLeftToTheTree() throws Exception {
    // endpoint_name shares a oneof with endpoint; resolver_name is a rule; both are strings.
    LbEndpoint plain =
        LbEndpoint.newBuilder()
            .setEndpoint(io.envoyproxy.envoy.config.endpoint.v3.Endpoint.newBuilder().setAddress(socket("10.0.0.1",
                80)))
            .build();
    ByteString bytes =
        endpoints("e").locality("a", "", "", l -> l.lbEndpoint(plain)).build().toByteString();
    ClusterLoadAssignment withEndpointName =
        endpoints("e").locality("a", "", "", l -> l.lbEndpoint(plain.toBuilder().setEndpointName("n").build())).build();
    ClusterLoadAssignment withResolver =
        endpoints("e").locality("a", "", "", l -> l.endpointAddress(Address.newBuilder()
            .setSocketAddress(SocketAddress.newBuilder().setAddress("10.0.0.1").setPortValue(80).setResolverName("")
                .setNetworkNamespaceFilepath("/ns")).build())).build();
    for (ClusterLoadAssignment cla : new ClusterLoadAssignment[] {withEndpointName, withResolver}) {
      assertThat(EndpointsDecoder.decodeInOnePass(cla.toByteString())).as(cla.toString()).isEmpty();
      assertSameAsTree(cla.toByteString());
    }
    assertThat(EndpointsDecoder.decodeInOnePass(bytes)).isPresent();
  }

  @Test
  void metadataNestedNearTheRecursionLimitFailsExactlyWhereParseFromFails() throws Exception {
    int parsed = 0;
    int failed = 0;
    for (int levels = 25; levels <= 40; levels++) {
      LbEndpoint lb =
          LbEndpoint.newBuilder()
              .setEndpoint(io.envoyproxy.envoy.config.endpoint.v3.Endpoint.newBuilder().setAddress(socket("10.0.0.1",
                  80)))
              .setMetadata(Metadata.newBuilder().putFilterMetadata("deep", struct(levels)))
              .build();
      ByteString bytes = endpoints("e").locality("a", "", "", l -> l.lbEndpoint(lb)).build().toByteString();
      if (assertSameAsTree(bytes)) {
        parsed++;
      } else {
        failed++;
      }
    }
    assertThat(parsed).as("depths parseFrom accepts").isPositive();
    assertThat(failed).as("depths parseFrom refuses").isPositive();
  }

  /** decode(bytes) and decodeInOnePass agree with parseFrom + decode; true if it parsed. */
  private static boolean assertSameAsTree(ByteString bytes) throws Exception {
    ClusterLoadAssignment cla;
    try {
      cla = ClusterLoadAssignment.parseFrom(bytes);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      assertThat(EndpointsDecoder.decodeInOnePass(bytes)).isEmpty();
      assertThatThrownBy(() -> EndpointsDecoder.decode(bytes)).hasMessageContaining("cannot be parsed");
      return false;
    }
    EndpointsUpdate tree;
    try {
      tree = EndpointsDecoder.decode(cla);
    } catch (XdsResourceException e) {
      assertThat(EndpointsDecoder.decodeInOnePass(bytes)).isEmpty();
      assertThatThrownBy(() -> EndpointsDecoder.decode(bytes)).hasMessage(e.getMessage());
      return true;
    }
    assertThat(EndpointsDecoder.decode(bytes)).isEqualTo(tree);
    EndpointsDecoder.decodeInOnePass(bytes).ifPresent(u -> assertThat(u).isEqualTo(tree));
    return true;
  }

  private static Address socket(String ip, int port) {
    return Address.newBuilder().setSocketAddress(SocketAddress.newBuilder().setAddress(ip).setPortValue(port)).build();
  }

  /** A Struct nested {@code levels} deep: {"k": {"k": ... {}}}. */
  private static Struct struct(int levels) {
    Struct s = Struct.getDefaultInstance();
    for (int i = 0; i < levels; i++) {
      s = Struct.newBuilder().putFields("k", com.google.protobuf.Value.newBuilder().setStructValue(s).build()).build();
    }
    return s;
  }

  @Test
  void ignoredLocalitiesAreNotValidatedButMustStillParse() throws Exception {
    ClusterLoadAssignment cla =
        endpoints("e")
            .locality("a", "", "", l -> l.weight(0).endpoint("not-an-ip", 0, HEALTHY))
            .locality("b", "", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY))
            .build();
    assertOnePass(cla);
  }

  @Test
  void invalidUtf8IsAParseErrorAsInParseFrom() {
    ClusterLoadAssignment cla = endpoints("e").locality("a", "", "", l -> l.noWeight()).build();
    byte[] bytes = cla.toByteArray();
    int at = indexOf(bytes, (byte) 'a');
    bytes[at] = (byte) 0xC3; // a lone lead byte: not UTF-8
    ByteString broken = ByteString.copyFrom(bytes);
    assertThat(EndpointsDecoder.decodeInOnePass(broken)).isEmpty();
    assertThatThrownBy(() -> EndpointsDecoder.decode(broken))
        .isInstanceOf(XdsResourceException.class)
        .hasMessageStartingWith("ClusterLoadAssignment \"\": cannot be parsed: ");
  }

  @Test
  void rejectionsCarryTheTreeDecodersMessage() {
    ClusterLoadAssignment cla =
        endpoints("e").locality("a", "", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY).endpoint("10.0.0.1", 80, HEALTHY))
            .build();
    assertThat(EndpointsDecoder.decodeInOnePass(cla.toByteString())).isEmpty();
    assertThatThrownBy(() -> EndpointsDecoder.decode(cla.toByteString()))
        .hasMessage("ClusterLoadAssignment \"e\": endpoints[0].lb_endpoints[1].endpoint.address must be unique in the "
            + "assignment, got 10.0.0.1:80 again");
  }

  private static void assertOnePass(ClusterLoadAssignment cla) throws Exception {
    Optional<EndpointsUpdate> onePass = EndpointsDecoder.decodeInOnePass(cla.toByteString());
    assertThat(onePass).contains(EndpointsDecoder.decode(cla));
    assertThat(onePass.get().localities()).extracting(Locality::weight).allMatch(w -> w > 0);
  }

  private static int indexOf(byte[] bytes, byte b) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    throw new AssertionError("no " + (char) b);
  }
}
