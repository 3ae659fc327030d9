package io.jxds.client;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static io.jxds.testing.FakeAdsServer.ENDPOINTS_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.client.bootstrap.Bootstrap;
import io.jxds.client.internal.bootstrap.BootstrapParser;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.Poll;
import io.jxds.testing.RecordedRequest;
import io.jxds.testing.XdsResources;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Federation (gRFC A47) with two FakeAdsServers as two control planes: each resource is requested
 * from its authority's servers, authorities sharing a server share its stream, each server's
 * features apply to it, and a name the bootstrap cannot place fails its watch at once.
 */
class FederationTest {
  private static final String CDS = "envoy.config.cluster.v3.Cluster";
  private static final String MAIN = "xdstp://main.example/" + CDS + "/payments";
  private static final String OTHER = "xdstp://other.example/" + CDS + "/ledger";
  private static final String OTHER_EDS =
      "xdstp://other.example/envoy.config.endpoint.v3.ClusterLoadAssignment/ledger";

  @RegisterExtension final FakeAdsServerExtension main = FakeAdsServerExtension.loopback();
  @RegisterExtension final FakeAdsServerExtension other = FakeAdsServerExtension.loopback();

  private DefaultXdsClient client;

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
  }

  private DefaultXdsClient federated(String otherFeatures) throws Exception {
    String json = """
        {
          "xds_servers": [{"server_uri": "MAIN", "channel_creds": [{"type": "insecure"}]}],
          "node": {"id": "federated"},
          "authorities": {
            "main.example": {},
            "other.example": {"xds_servers": [{"server_uri": "OTHER", "channel_creds": [{"type": "insecure"}],
                                               "server_features": [FEATURES]}]},
            "also-other.example": {"xds_servers": [{"server_uri": "OTHER", "channel_creds": [{"type": "insecure"}],
                                                    "server_features": [FEATURES]}]}
          }
        }
        """.replace("MAIN", main.server().serverUri()).replace("OTHER", other.server().serverUri())
        .replace("FEATURES", otherFeatures);
    Bootstrap bootstrap = BootstrapParser.parse(json, "test");
    client = XdsClientBuilder.fromBootstrap(bootstrap).build();
    return client;
  }

  @Test
  void eachResourceIsRequestedFromItsAuthoritysServers() throws Exception {
    main.server().setClusters(XdsResources.cluster("plain").build(), XdsResources.cluster(MAIN).build());
    other.server().setClusters(XdsResources.cluster(OTHER).build());
    federated("");
    RecordingWatcher<ClusterUpdate> plain = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> mainCluster = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> otherCluster = new RecordingWatcher<>();
    client.watchCluster("plain", plain, Runnable::run);
    client.watchCluster(MAIN, mainCluster, Runnable::run);
    client.watchCluster(OTHER, otherCluster, Runnable::run);

    Poll.until("all three", () -> plain.updates().size() == 1 && mainCluster.updates().size() == 1
        && otherCluster.updates().size() == 1);
    assertThat(otherCluster.updates().get(0).clusterName()).isEqualTo(OTHER);
    assertThat(names(main.server().requests().ofType(CLUSTER_TYPE_URL))).contains("plain", MAIN).doesNotContain(OTHER);
    assertThat(names(other.server().requests().ofType(CLUSTER_TYPE_URL))).containsOnly(OTHER);
  }

  @Test
  void authoritiesThatShareAServerShareItsStream() throws Exception {
    String alsoOther = "xdstp://also-other.example/" + CDS + "/audit";
    other.server().setClusters(XdsResources.cluster(OTHER).build(), XdsResources.cluster(alsoOther).build());
    federated("");
    RecordingWatcher<ClusterUpdate> a = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster(OTHER, a, Runnable::run);
    client.watchCluster(alsoOther, b, Runnable::run);

    Poll.until("both", () -> a.updates().size() == 1 && b.updates().size() == 1);
    assertThat(other.server().streams().count()).isEqualTo(1);
    assertThat(main.server().streams().count()).as("nothing watched from the top-level server yet").isZero();
  }

  @Test
  void eachServerSpeaksWhatItsFeaturesSay() throws Exception {
    main.server().setClusters(XdsResources.cluster("plain").build());
    other.server().setClusters(XdsResources.cluster(OTHER).build());
    federated("\"jxds.delta\"");
    RecordingWatcher<ClusterUpdate> plain = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> otherCluster = new RecordingWatcher<>();
    client.watchCluster("plain", plain, Runnable::run);
    client.watchCluster(OTHER, otherCluster, Runnable::run);

    Poll.until("both", () -> plain.updates().size() == 1 && otherCluster.updates().size() == 1);
    assertThat(other.server().requests().delta()).as("other.example's server speaks delta").isNotEmpty();
    assertThat(main.server().requests().delta()).as("the top-level server speaks state of the world").isEmpty();
  }

  @Test
  void endpointsOfAClusterMayLiveInAnotherAuthority() throws Exception {
    other.server().setEndpoints(XdsResources.endpoints(OTHER_EDS).build());
    federated("");
    RecordingWatcher<EndpointsUpdate> endpoints = new RecordingWatcher<>();
    client.watchEndpoints(OTHER_EDS, endpoints, Runnable::run);

    Poll.until("endpoints", () -> endpoints.updates().size() == 1);
    assertThat(names(other.server().requests().ofType(ENDPOINTS_TYPE_URL))).containsOnly(OTHER_EDS);
    assertThat(main.server().requests().ofType(ENDPOINTS_TYPE_URL)).isEmpty();
  }

  @Test
  void queryParametersAreSortedOnBothSides() throws Exception {
    String served = "xdstp://main.example/" + CDS + "/payments?a=1&z=2";
    main.server().setClusters(XdsResources.cluster(served).build());
    federated("");
    RecordingWatcher<ClusterUpdate> watcher = new RecordingWatcher<>();
    client.watchCluster("xdstp://main.example/" + CDS + "/payments?z=2&a=1", watcher, Runnable::run);

    Poll.until("update", () -> watcher.updates().size() == 1);
    assertThat(names(main.server().requests().ofType(CLUSTER_TYPE_URL))).containsOnly(served);
  }

  @Test
  void unknownAuthorityFailsTheWatchAtOnceNamingIt() throws Exception {
    federated("");
    RecordingWatcher<ClusterUpdate> watcher = new RecordingWatcher<>();
    client.watchCluster("xdstp://nowhere.example/" + CDS + "/x", watcher, Runnable::run);

    assertThat(watcher.errors()).singleElement().satisfies(s -> {
      assertThat(s.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(s.getDescription()).contains("authority \"nowhere.example\" is not in the bootstrap")
          .contains("xdstp://nowhere.example/").contains("federated");
    });
    assertThat(main.server().streams().count()).isZero();
  }

  @Test
  void malformedXdstpNamesFailTheWatchNamingTheProblem() throws Exception {
    federated("");
    RecordingWatcher<ClusterUpdate> badEscape = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> wrongType = new RecordingWatcher<>();
    client.watchCluster("xdstp://main.example/" + CDS + "/a%zzb", badEscape, Runnable::run);
    client.watchCluster("xdstp://main.example/envoy.config.listener.v3.Listener/x", wrongType, Runnable::run);

    assertThat(badEscape.errors()).singleElement()
        .satisfies(s -> assertThat(s.getDescription()).contains("bad percent-escape \"%zz\""));
    assertThat(wrongType.errors()).singleElement().satisfies(s -> assertThat(s.getDescription())
        .contains("resource type \"envoy.config.listener.v3.Listener\" is not " + CDS));
  }

  @Test
  void clientWithoutFederationTakesEveryNameFromItsServer() {
    // A client built without a bootstrap has no authorities to check: its server serves every name.
    main.server().setClusters(XdsResources.cluster(OTHER).build());
    client = XdsClientBuilder.forTarget(main.server().serverUri(), io.grpc.InsecureChannelCredentials.create())
        .build();
    RecordingWatcher<ClusterUpdate> watcher = new RecordingWatcher<>();
    client.watchCluster(OTHER, watcher, Runnable::run);

    Poll.until("update", () -> watcher.updates().size() == 1);
  }

  @Test
  void clientOnAChannelServesEveryAuthorityFromThatChannel() {
    main.server().setClusters(XdsResources.cluster(MAIN).build(), XdsResources.cluster(OTHER).build());
    io.grpc.ManagedChannel channel = main.server().newClientChannel();
    try {
      client = XdsClientBuilder.forChannel(channel).build();
      RecordingWatcher<ClusterUpdate> mainCluster = new RecordingWatcher<>();
      RecordingWatcher<ClusterUpdate> otherCluster = new RecordingWatcher<>();
      client.watchCluster(MAIN, mainCluster, Runnable::run);
      client.watchCluster(OTHER, otherCluster, Runnable::run);

      Poll.until("both", () -> mainCluster.updates().size() == 1 && otherCluster.updates().size() == 1);
      assertThat(main.server().streams().count()).isEqualTo(1);
      assertThat(names(main.server().requests().ofType(CLUSTER_TYPE_URL))).containsOnly(MAIN, OTHER);
    } finally {
      client.close();
      client = null;
      channel.shutdownNow();
    }
  }

  @Test
  void bootstrapWithoutAuthoritiesFailsEveryXdstpNameNamingItsAuthority() throws Exception {
    // gRFC A47: an xdstp: name's authority must be in the bootstrap's authorities, even when there
    // are none; plain names still come from the top-level server.
    main.server().setClusters(XdsResources.cluster("plain").build(), XdsResources.cluster(MAIN).build());
    client = XdsClientBuilder.fromBootstrap(BootstrapParser.parse(main.server().bootstrap().build(), "test")).build();
    RecordingWatcher<ClusterUpdate> plain = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> federated = new RecordingWatcher<>();
    client.watchCluster(MAIN, federated, Runnable::run);
    client.watchCluster("plain", plain, Runnable::run);

    assertThat(federated.errors()).singleElement().satisfies(s -> {
      assertThat(s.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(s.getDescription()).contains("authority \"main.example\" is not in the bootstrap's authorities");
    });
    Poll.until("plain", () -> plain.updates().size() == 1);
    assertThat(names(main.server().requests().ofType(CLUSTER_TYPE_URL))).containsOnly("plain");
  }

  @Test
  void csdsReportsOneClientConfigForTheWholeBootstrap() throws Exception {
    // gRFC A40/A71: one ClientConfig per client; jxds shares one client per bootstrap, whose
    // authorities' resources (listeners included) are all in it, under the top-level server's scope.
    String otherListener = "xdstp://other.example/envoy.config.listener.v3.Listener/ledger";
    main.server().setClusters(XdsResources.cluster("plain").build());
    other.server().setClusters(XdsResources.cluster(OTHER).build());
    other.server().setListeners(XdsResources.listener(otherListener).rdsRouteConfig("ledger-routes").build());
    federated("");
    RecordingWatcher<ClusterUpdate> plain = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> otherCluster = new RecordingWatcher<>();
    RecordingWatcher<io.jxds.api.model.ListenerUpdate> listener = new RecordingWatcher<>();
    client.watchCluster("plain", plain, Runnable::run);
    client.watchCluster(OTHER, otherCluster, Runnable::run);
    client.watch(io.jxds.api.ResourceTypes.LISTENER, otherListener, listener, Runnable::run);
    Poll.until("all three", () -> plain.updates().size() == 1 && otherCluster.updates().size() == 1
        && listener.updates().size() == 1);

    Poll.until("the status snapshots", () -> client.status().resources().stream()
        .filter(r -> r.state() == io.jxds.api.ResourceState.ACKED).count() == 3);
    List<io.envoyproxy.envoy.service.status.v3.ClientConfig> mine =
        io.jxds.client.csds.XdsCsdsService.clientStatus().getConfigList().stream()
            .filter(c -> c.getNode().getId().equals("federated")).toList();
    assertThat(mine).singleElement().satisfies(c -> {
      assertThat(c.getClientScope()).isEqualTo(main.server().serverUri());
      assertThat(c.getGenericXdsConfigsList()).extracting(g -> g.getName())
          .containsExactlyInAnyOrder("plain", OTHER, otherListener);
    });
  }

  private static List<String> names(List<RecordedRequest> requests) {
    return requests.stream().flatMap(r -> r.resourceNames().stream()).distinct().toList();
  }
}
