package io.jxds.toolkit;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Duration;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthCheck;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Status;
import io.jxds.api.ResourceTypes;
import io.jxds.api.ResourceWatcher;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.XdsResources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Verdicts are the client's own: the same NACK text a real jxds client sends, and ignored fields named. */
class CheckTest {
  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.loopback();

  @Test
  void nackTextIsExactlyWhatARealClientSends() throws Exception {
    Cluster bad = XdsResources.cluster("payments").lrsServer(XdsResources.adsConfigSource()).build();
    ads.server().setClusters(bad);
    try (DefaultXdsClient client =
        XdsClientBuilder.forTarget(ads.server().serverUri(), InsecureChannelCredentials.create()).build()) {
      client.watchCluster("payments", ignoring(), Runnable::run);
      String sent = ads.server().requests().awaitNack(ResourceTypes.CLUSTER_TYPE_URL, java.time.Duration.ofSeconds(5))
          .errorMessage();

      CheckReport check = Snapshot.fromResponses(DiscoveryResponse.newBuilder()
          .setTypeUrl(ResourceTypes.CLUSTER_TYPE_URL).addResources(com.google.protobuf.Any.pack(bad)).build()).check();
      assertThat(check.resource("CDS", "payments").orElseThrow().nack()).hasValue(sent);
      assertThat(sent).contains("lrs_server must be self");
    }
  }

  @Test
  void listenerAndRouteConfigurationNacksAreExactlyWhatARealClientSends() throws Exception {
    Listener badListener = Listener.newBuilder().setName("svc").build(); // no api_listener
    RouteConfiguration badRoutes = XdsResources.route("svc-routes").virtualHost(VirtualHost.newBuilder()
        .setName("vh").addDomains("*").addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/"))
            .setRoute(RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
                .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("a")
                    .setWeight(UInt32Value.of(0)))))).build())
        .build();
    ads.server().setListeners(badListener);
    ads.server().setRoutes(badRoutes);
    try (DefaultXdsClient client =
        XdsClientBuilder.forTarget(ads.server().serverUri(), InsecureChannelCredentials.create()).build()) {
      client.watchListener("svc", ignoring(), Runnable::run);
      client.watchRouteConfiguration("svc-routes", ignoring(), Runnable::run);
      String lds = ads.server().requests().awaitNack(ResourceTypes.LISTENER_TYPE_URL, java.time.Duration.ofSeconds(5))
          .errorMessage();
      String rds = ads.server().requests()
          .awaitNack(ResourceTypes.ROUTE_CONFIGURATION_TYPE_URL, java.time.Duration.ofSeconds(5)).errorMessage();

      CheckReport check = Snapshot.of(badListener, badRoutes).check();
      assertThat(check.resource("LDS", "svc").orElseThrow().nack()).hasValue(lds);
      assertThat(check.resource("RDS", "svc-routes").orElseThrow().nack()).hasValue(rds);
      assertThat(rds).contains("weight must sum to [1, 4294967295]");
    }
  }

  @Test
  void validResourcesAreAcceptedAndAValidNeighbourStillIs() {
    CheckReport check = Snapshot.of(
        XdsResources.cluster("good").build(),
        XdsResources.cluster("bad").type(Cluster.DiscoveryType.STATIC).build()).check();

    assertThat(check.resource("CDS", "good").orElseThrow().accepted()).isTrue();
    assertThat(check.resource("CDS", "bad").orElseThrow().nack()).hasValueSatisfying(
        n -> assertThat(n).contains("type must be EDS"));
    assertThat(check.anyNacked()).isTrue();
    assertThat(check.nacked()).extracting(ResourceVerdict::name).containsExactly("bad");
  }

  @Test
  void fieldsGrpcIgnoresAreNamedWithWhy() {
    Cluster cluster = XdsResources.cluster("payments").proto()
        .addHealthChecks(HealthCheck.newBuilder().setTimeout(Duration.newBuilder().setSeconds(1)))
        .setConnectTimeout(Duration.newBuilder().setSeconds(2))
        .build();
    CheckReport check = Snapshot.of(cluster, XdsResources.endpoints("payments").overprovisioningFactor(200)
        .locality("us", "a", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY)).build()).check();

    assertThat(check.resource("CDS", "payments").orElseThrow().ignoredFields())
        .extracting(IgnoredField::field).containsExactly("health_checks", "connect_timeout");
    assertThat(check.resource("EDS", "payments").orElseThrow().ignoredFields()).singleElement()
        .satisfies(f -> assertThat(f.field()).isEqualTo("policy.overprovisioning_factor"))
        .satisfies(f -> assertThat(f.reason()).contains("envoy.lb.does_not_support_overprovisioning"));
    assertThat(check.anyNacked()).isFalse();
  }

  @Test
  void ignoredFieldInEveryEndpointCountsOccurrencesAndNamesTheFirst() {
    var eds = XdsResources.endpoints("payments")
        .locality("us", "a", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY).endpoint("10.0.0.2", 80, HEALTHY))
        .proto();
    eds.getEndpointsBuilder(0).setProximity(UInt32Value.of(1));
    eds.getEndpointsBuilder(0).getLbEndpointsBuilder(1).getEndpointBuilder().getHealthCheckConfigBuilder()
        .setPortValue(9);
    CheckReport check = Snapshot.of(eds.build()).check();

    assertThat(check.resource("EDS", "payments").orElseThrow().ignoredFields()).extracting(IgnoredField::toString)
        .containsExactly(
            "endpoints[0].lb_endpoints[1].endpoint.health_check_config: gRPC clients run no active health checks:"
                + " an endpoint's health is its EDS health_status (gRFC A27)",
            "endpoints[0].proximity: gRPC does not read locality proximity");
  }

  @Test
  void aNameGivenTwiceIsNotedAndTheLastCounts() {
    Snapshot s = Snapshot.of(XdsResources.cluster("p").maxRequests(5).build(),
        XdsResources.cluster("p").maxRequests(7).build(),
        XdsResources.endpoints("p").locality("us", "a", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY)).build());

    assertThat(s.check().notes()).singleElement().asString()
        .isEqualTo("CDS \"p\" is given more than once (resource #0, resource #1): the last one counts,"
            + " as a client applies resources in order");
    assertThat(s.plan().cluster("p").orElseThrow().maxConcurrentRequests()).isEqualTo(7);
  }

  private static <T> ResourceWatcher<T> ignoring() {
    return new ResourceWatcher<>() {
      @Override
      public void onUpdate(T value) {}

      @Override
      public void onResourceDoesNotExist(String name) {}

      @Override
      public void onError(Status error) {}
    };
  }
}
