package io.jxds.api;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.jxds.api.internal.ResourceDecoding;
import io.jxds.api.internal.UnpackedResource;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.RouteConfigurationUpdate;
import io.jxds.api.model.route.VirtualHost;
import io.jxds.testing.XdsResources;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResourceTypesTest {
  @Test
  void clusterUnpacksAndDecodes() throws Exception {
    UnpackedResource<ClusterUpdate> r =
        ResourceDecoding.unpack(ResourceTypes.CLUSTER, XdsResources.cluster("payments").edsServiceName("p-eds")
            .buildAny());
    assertThat(r.name()).isEqualTo("payments");
    assertThat(r.decode()).isEqualTo(ClusterUpdate.of("payments", "p-eds"));
  }

  @Test
  void endpointsUnpackAndDecode() throws Exception {
    UnpackedResource<EndpointsUpdate> r =
        ResourceDecoding.unpack(ResourceTypes.ENDPOINTS,
            XdsResources.endpoints("p-eds").locality("r", "z", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY))
                .buildAny());
    assertThat(r.name()).isEqualTo("p-eds");
    assertThat(r.decode().localities()).hasSize(1);
  }

  @Test
  void listenerUnpacksAndDecodes() throws Exception {
    UnpackedResource<ListenerUpdate> r =
        ResourceDecoding.unpack(ResourceTypes.LISTENER,
            XdsResources.listener("foo:8080").rdsRouteConfig("rc").buildAny());
    assertThat(r.name()).isEqualTo("foo:8080");
    assertThat(r.decode()).isEqualTo(ListenerUpdate.rds("foo:8080", "rc"));
  }

  @Test
  void routeConfigurationUnpacksAndDecodes() throws Exception {
    UnpackedResource<RouteConfigurationUpdate> r = ResourceDecoding.unpack(ResourceTypes.ROUTE_CONFIGURATION,
        XdsResources.route("rc").virtualHost("vh", List.of("*"), "c").buildAny());
    assertThat(r.name()).isEqualTo("rc");
    assertThat(r.decode().virtualHosts()).extracting(VirtualHost::name).containsExactly("vh");
  }

  @Test
  void listenerAndRouteDescriptors() {
    assertThat(ResourceTypes.LISTENER.typeUrl()).isEqualTo("type.googleapis.com/envoy.config.listener.v3.Listener");
    assertThat(ResourceTypes.LISTENER.shortName()).isEqualTo("LDS");
    assertThat(ResourceTypes.LISTENER.absenceMeansDeletion()).isTrue();
    assertThat(ResourceTypes.ROUTE_CONFIGURATION.typeUrl())
        .isEqualTo("type.googleapis.com/envoy.config.route.v3.RouteConfiguration");
    assertThat(ResourceTypes.ROUTE_CONFIGURATION.shortName()).isEqualTo("RDS");
    assertThat(ResourceTypes.ROUTE_CONFIGURATION.absenceMeansDeletion()).isFalse();
  }

  @Test
  void descriptorsSayWhetherAbsenceMeansDeletion() {
    assertThat(ResourceTypes.CLUSTER.absenceMeansDeletion()).isTrue();
    assertThat(ResourceTypes.ENDPOINTS.absenceMeansDeletion()).isFalse();
    assertThat(ResourceTypes.CLUSTER.typeUrl()).isEqualTo("type.googleapis.com/envoy.config.cluster.v3.Cluster");
    assertThat(ResourceTypes.ENDPOINTS.typeUrl())
        .isEqualTo("type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment");
  }

  @Test
  void wrongTypeUrlIsRejectedNamingBoth() {
    Any endpoints = XdsResources.endpoints("p-eds").buildAny();
    assertThatThrownBy(() -> ResourceDecoding.unpack(ResourceTypes.CLUSTER, endpoints))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage(
            "CDS response: type_url must be type.googleapis.com/envoy.config.cluster.v3.Cluster, got "
                + "\"type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment\"");
  }

  @Test
  void resourceWrapperIsUnwrappedAndItsNameWins() throws Exception {
    Any wrapped =
        Any.pack(
            Resource.newBuilder()
                .setName("payments")
                .setVersion("7")
                .setResource(XdsResources.cluster("payments").buildAny())
                .build());
    UnpackedResource<ClusterUpdate> r = ResourceDecoding.unpack(ResourceTypes.CLUSTER, wrapped);
    assertThat(r.name()).isEqualTo("payments");
    assertThat(r.decode().clusterName()).isEqualTo("payments");
  }

  @Test
  void resourceWrapperWithoutResourceIsRejected() {
    Any wrapped = Any.pack(Resource.newBuilder().setName("payments").build());
    assertThatThrownBy(() -> ResourceDecoding.unpack(ResourceTypes.CLUSTER, wrapped))
        .isInstanceOf(XdsResourceException.class)
        .hasMessageContaining("\"payments\"")
        .hasMessageContaining("resource is not set");
  }

  @Test
  void garbageBytesAreRejectedWithTheCause() {
    Any garbage =
        Any.newBuilder()
            .setTypeUrl(ResourceTypes.CLUSTER_TYPE_URL)
            .setValue(ByteString.copyFrom(new byte[] {(byte) 0x0A, (byte) 0x7F, 1}))
            .build();
    assertThatThrownBy(() -> ResourceDecoding.unpack(ResourceTypes.CLUSTER, garbage))
        .isInstanceOf(XdsResourceException.class)
        .hasMessageStartingWith("cannot decode Cluster")
        .hasCauseInstanceOf(com.google.protobuf.InvalidProtocolBufferException.class);
  }

  @Test
  void invalidResourceUnpacksButFailsToDecode() throws Exception {
    UnpackedResource<ClusterUpdate> r =
        ResourceDecoding.unpack(ResourceTypes.CLUSTER, XdsResources.cluster("payments").edsConfigPath("/x").buildAny());
    assertThat(r.name()).isEqualTo("payments");
    assertThatThrownBy(r::decode)
        .isInstanceOf(XdsResourceException.class)
        .hasMessageContaining("eds_cluster_config.eds_config");
  }

  @Test
  void endpointsReadFromBytesKeepTheWrapperNameAndTheUsualErrors() throws Exception {
    Any eds = XdsResources.endpoints("p-eds").locality("r", "z", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY))
        .buildAny();
    Any wrapped = Any.pack(Resource.newBuilder().setName("wrapper-name").setResource(eds).build());
    assertThat(ResourceDecoding.unpack(ResourceTypes.ENDPOINTS, wrapped).name()).isEqualTo("wrapper-name");
    assertThat(ResourceDecoding.unpack(ResourceTypes.ENDPOINTS, wrapped).decode().clusterName()).isEqualTo("p-eds");
    Any unnamedWrapper = Any.pack(Resource.newBuilder().setResource(eds).build());
    assertThat(ResourceDecoding.unpack(ResourceTypes.ENDPOINTS, unnamedWrapper).name()).isEqualTo("p-eds");

    // Unparseable bytes still fail at unpack, as before the one-pass reader.
    Any garbage =
        Any.newBuilder()
            .setTypeUrl(ResourceTypes.ENDPOINTS_TYPE_URL)
            .setValue(ByteString.copyFrom(new byte[] {(byte) 0x0A, (byte) 0x7F, 1}))
            .build();
    assertThatThrownBy(() -> ResourceDecoding.unpack(ResourceTypes.ENDPOINTS, garbage))
        .isInstanceOf(XdsResourceException.class)
        .hasMessageStartingWith("cannot decode ClusterLoadAssignment");
    // A rule broken: unpacked and named, the NACK comes from decode().
    UnpackedResource<EndpointsUpdate> invalid =
        ResourceDecoding.unpack(ResourceTypes.ENDPOINTS,
            XdsResources.endpoints("p-eds").locality("r", "z", "", l -> l.endpoint("localhost", 80, HEALTHY))
                .buildAny());
    assertThat(invalid.name()).isEqualTo("p-eds");
    assertThatThrownBy(invalid::decode).hasMessageContaining("must be an IP literal");
  }
}
