package io.jxds.client;

import static io.jxds.testing.FakeAdsServer.LISTENER_TYPE_URL;
import static io.jxds.testing.FakeAdsServer.ROUTE_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.ManagedChannel;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.RouteConfigurationUpdate;
import io.jxds.api.model.route.RouteAction;
import io.jxds.api.model.route.VirtualHost;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.Poll;
import io.jxds.testing.RecordedRequest;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * LDS and RDS through the client like CDS and EDS: the same stream, cache and ACK/NACK, state of the
 * world and delta; in state of the world a listener missing from a response is deleted and a route
 * configuration is not (gRFC A27).
 */
class ListenerAndRouteWatchTest {
  private static final Duration WAIT = Duration.ofSeconds(5);

  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.inProcess();

  private ManagedChannel channel;
  private DefaultXdsClient client;

  @AfterEach
  void close() {
    client.close();
    channel.shutdownNow();
  }

  private void connect(boolean delta) {
    channel = ads.server().newClientChannel();
    client = XdsClientBuilder.forChannel(channel).node(Node.newBuilder().setId("lds-rds").build())
        .deltaXds(delta).build();
  }

  @ParameterizedTest(name = "delta={0}")
  @ValueSource(booleans = {false, true})
  void listenerAndRouteConfigurationAreDecodedIntoTheModel(boolean delta) {
    ads.server().setListeners(XdsResources.listener("echo:8080").rdsRouteConfig("echo-routes").build());
    ads.server().setRoutes(XdsResources.route("echo-routes").virtualHost("vh", List.of("echo:8080"), "echo").build());
    connect(delta);
    RecordingWatcher<ListenerUpdate> listeners = new RecordingWatcher<>();
    RecordingWatcher<RouteConfigurationUpdate> routes = new RecordingWatcher<>();
    client.watchListener("echo:8080", listeners, Runnable::run);
    client.watchRouteConfiguration("echo-routes", routes, Runnable::run);
    Poll.until("both", () -> listeners.updates().size() == 1 && routes.updates().size() == 1);
    assertThat(listeners.updates().get(0)).isEqualTo(ListenerUpdate.rds("echo:8080", "echo-routes"));
    VirtualHost host = routes.updates().get(0).virtualHosts().get(0);
    assertThat(host.domains()).containsExactly("echo:8080");
    assertThat(host.routes().get(0).action()).isEqualTo(new RouteAction.Cluster("echo"));
    ads.server().requests().awaitAck(LISTENER_TYPE_URL, ads.server().version(LISTENER_TYPE_URL), WAIT);
    ads.server().requests().awaitAck(ROUTE_TYPE_URL, ads.server().version(ROUTE_TYPE_URL), WAIT);
  }

  @Test
  void sotwResponseWithoutTheListenerDeletesIt() {
    ads.server().setListeners(XdsResources.listener("a").rdsRouteConfig("r").build(),
        XdsResources.listener("b").rdsRouteConfig("r").build());
    connect(false);
    RecordingWatcher<ListenerUpdate> a = new RecordingWatcher<>();
    RecordingWatcher<ListenerUpdate> b = new RecordingWatcher<>();
    client.watchListener("a", a, Runnable::run);
    client.watchListener("b", b, Runnable::run);
    Poll.until("both", () -> a.updates().size() == 1 && b.updates().size() == 1);

    ads.server().setListeners(XdsResources.listener("b").rdsRouteConfig("r2").build());

    Poll.until("a deleted", () -> a.last() instanceof RecordingWatcher.DoesNotExist);
    Poll.until("b updated", () -> b.updates().size() == 2);
    assertThat(b.updates().get(1).rdsName()).contains("r2");
  }

  @Test
  void sotwResponseWithoutTheRouteConfigurationKeepsIt() {
    ads.server().setRoutes(XdsResources.route("r1").virtualHost("vh", List.of("*"), "c1").build(),
        XdsResources.route("r2").virtualHost("vh", List.of("*"), "c2").build());
    connect(false);
    RecordingWatcher<RouteConfigurationUpdate> r1 = new RecordingWatcher<>();
    RecordingWatcher<RouteConfigurationUpdate> r2 = new RecordingWatcher<>();
    client.watchRouteConfiguration("r1", r1, Runnable::run);
    client.watchRouteConfiguration("r2", r2, Runnable::run);
    Poll.until("both", () -> r1.updates().size() == 1 && r2.updates().size() == 1);

    // a response that carries r2 alone: r1 is unchanged, not deleted
    ads.server().setRoutes(XdsResources.route("r2").virtualHost("vh", List.of("*"), "c3").build());

    Poll.until("r2 updated", () -> r2.updates().size() == 2);
    ads.server().requests().awaitAck(ROUTE_TYPE_URL, ads.server().version(ROUTE_TYPE_URL), WAIT);
    assertThat(r1.events()).hasSize(1);
    RecordingWatcher<RouteConfigurationUpdate> late = new RecordingWatcher<>();
    client.watchRouteConfiguration("r1", late, Runnable::run);
    Poll.until("cached r1", () -> late.updates().size() == 1);
    assertThat(late.updates().get(0)).isEqualTo(r1.updates().get(0));
  }

  @Test
  void invalidListenerIsNackedNamingTheFieldAndTheLastGoodOneKept() {
    ads.server().setListeners(XdsResources.listener("a").rdsRouteConfig("r").build());
    connect(false);
    RecordingWatcher<ListenerUpdate> a = new RecordingWatcher<>();
    client.watchListener("a", a, Runnable::run);
    Poll.until("first", () -> a.updates().size() == 1);

    ads.server().setListeners(XdsResources.listener("a").rdsRouteConfig("").build());

    RecordedRequest nack = ads.server().requests().awaitNack(LISTENER_TYPE_URL, WAIT);
    assertThat(nack.errorMessage()).contains("listener \"a\": api_listener.api_listener.rds.route_config_name "
        + "must not be empty, got \"\"");
    RecordingWatcher<ListenerUpdate> late = new RecordingWatcher<>();
    client.watchListener("a", late, Runnable::run);
    Poll.until("cached", () -> !late.updates().isEmpty());
    assertThat(late.updates().get(0).rdsName()).contains("r");
  }
}
