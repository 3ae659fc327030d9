package io.jxds.balancer.internal.resolver;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.ResourceTypes;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.RouteConfigurationUpdate;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.RouteAction;
import io.jxds.api.model.route.RouteMatch;
import io.jxds.api.model.route.StringMatcher;
import io.jxds.api.model.route.VirtualHost;
import io.jxds.api.testing.FakeXdsClient;
import io.jxds.api.testing.FakeXdsClient.Watch;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The route source of an {@code xds:///} channel (gRFC A27) over a fake client: which resources it
 * watches, and what its sink hears for each listener and route configuration event.
 */
class ListenerRouteSourceTest {
  private static final String TARGET = "xds:///svc";
  private static final String LISTENER = "svc";
  private static final MethodDescriptor<byte[], byte[]> METHOD = MethodDescriptor.<byte[], byte[]>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY)
      .setFullMethodName("pkg.Service/Method")
      .setRequestMarshaller(new Bytes())
      .setResponseMarshaller(new Bytes())
      .build();

  private final List<Throwable> uncaught = new ArrayList<>();
  private final SynchronizationContext syncContext = new SynchronizationContext((t, e) -> uncaught.add(e));
  private final FakeXdsClient client = new FakeXdsClient();
  /** What the sink heard, in order: route tables and error statuses. */
  private final List<Object> heard = new ArrayList<>();
  private final Random random = new Random(7);
  private RouteSource source;

  @BeforeEach
  void start() {
    RouteSource.Request request = new RouteSource.Request(TARGET, LISTENER, "svc", client, syncContext);
    RouteSource.Sink sink = new RouteSource.Sink() {
      @Override
      public void onRouteTable(RouteTable table) {
        heard.add(table);
      }

      @Override
      public void onError(Status status) {
        heard.add(status);
      }
    };
    syncContext.execute(() -> source = ListenerRouteSource.factory(() -> random).start(request, sink));
  }

  @AfterEach
  void noneThrewOnTheSynchronizationContext() {
    assertThat(uncaught).isEmpty();
  }

  @Test
  void inlineRoutesRouteWithoutAnyRouteConfigurationWatch() {
    assertThat(client.activeWatch(ResourceTypes.LISTENER, LISTENER).cancelled()).isFalse();

    client.setResource(ResourceTypes.LISTENER, LISTENER, ListenerUpdate.inline(LISTENER, routes("inline", "a")));

    assertThat(lastTable().clusters()).containsExactly("a");
    assertThat(routeOf(lastTable())).isEqualTo("a");
    assertThat(client.activeWatchCount(ResourceTypes.ROUTE_CONFIGURATION)).isZero();
  }

  @Test
  void rdsRoutesArriveAfterTheListenerAndTheSameNameAgainKeepsTheOneWatch() {
    client.setResource(ResourceTypes.LISTENER, LISTENER, ListenerUpdate.rds(LISTENER, "r1"));
    assertThat(heard).as("nothing to route by before the route configuration").isEmpty();
    assertThat(client.activeWatch(ResourceTypes.ROUTE_CONFIGURATION, "r1").cancelled()).isFalse();

    client.setResource(ResourceTypes.ROUTE_CONFIGURATION, "r1", routes("r1", "a"));
    assertThat(routeOf(lastTable())).isEqualTo("a");

    client.setResource(ResourceTypes.LISTENER, LISTENER, ListenerUpdate.rds(LISTENER, "r1"));
    assertThat(client.watches().stream().filter(w -> w.type() == ResourceTypes.ROUTE_CONFIGURATION)).hasSize(1);
    assertThat(heard).hasSize(1);
  }

  @Test
  void anRdsRenameCancelsTheOldWatchAndKeepsItsRoutesUntilTheNewOnesArrive() {
    client.setResource(ResourceTypes.LISTENER, LISTENER, ListenerUpdate.rds(LISTENER, "r1"));
    client.setResource(ResourceTypes.ROUTE_CONFIGURATION, "r1", routes("r1", "a"));
    Watch<RouteConfigurationUpdate> r1 = client.activeWatch(ResourceTypes.ROUTE_CONFIGURATION, "r1");

    client.setResource(ResourceTypes.LISTENER, LISTENER, ListenerUpdate.rds(LISTENER, "r2"));

    assertThat(r1.cancelled()).isTrue();
    assertThat(client.activeWatch(ResourceTypes.ROUTE_CONFIGURATION, "r2").cancelled()).isFalse();
    assertThat(heard).as("r1's routes stay until r2 arrives").hasSize(1);
    client.setResource(ResourceTypes.ROUTE_CONFIGURATION, "r2", routes("r2", "b"));
    assertThat(routeOf(lastTable())).isEqualTo("b");
    client.setResource(ResourceTypes.ROUTE_CONFIGURATION, "r1", routes("r1", "late"));
    assertThat(heard).hasSize(2);
  }

  @Test
  void aDeletedListenerFailsNamingItDropsItsRouteWatchAndRoutesAgainWhenRestored() {
    client.setResource(ResourceTypes.LISTENER, LISTENER, ListenerUpdate.rds(LISTENER, "r1"));
    client.setResource(ResourceTypes.ROUTE_CONFIGURATION, "r1", routes("r1", "a"));

    client.removeResource(ResourceTypes.LISTENER, LISTENER);

    Status error = lastError();
    assertThat(error.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(error.getDescription()).isEqualTo("xds:///svc: listener svc does not exist");
    assertThat(client.activeWatchCount(ResourceTypes.ROUTE_CONFIGURATION)).isZero();

    client.setResource(ResourceTypes.LISTENER, LISTENER, ListenerUpdate.rds(LISTENER, "r1"));
    assertThat(routeOf(lastTable())).as("r1 watched again: the client hands its cached value").isEqualTo("a");
  }

  @Test
  void anErrorOnceRoutesAreInPlaceKeepsThem() {
    client.setResource(ResourceTypes.LISTENER, LISTENER, ListenerUpdate.rds(LISTENER, "r1"));
    client.setResource(ResourceTypes.ROUTE_CONFIGURATION, "r1", routes("r1", "a"));

    client.pushError(ResourceTypes.ROUTE_CONFIGURATION, "r1",
        Status.UNAVAILABLE.withDescription("RouteConfiguration r1 NACKed: virtual_hosts[0].routes[0] ..."));
    client.pushError(ResourceTypes.LISTENER, LISTENER, Status.UNAVAILABLE.withDescription("stream lost"));

    assertThat(heard).hasSize(1);
    assertThat(routeOf(lastTable())).isEqualTo("a");
  }

  @Test
  void anErrorBeforeAnyRoutesFailsNamingTheResource() {
    client.setResource(ResourceTypes.LISTENER, LISTENER, ListenerUpdate.rds(LISTENER, "r1"));

    client.pushError(ResourceTypes.ROUTE_CONFIGURATION, "r1", Status.UNAVAILABLE.withDescription("NACKed: bad"));

    assertThat(lastError().getDescription()).isEqualTo("xds:///svc: listener svc: route configuration r1: NACKed: bad");
  }

  @Test
  void aRouteConfigurationThatDoesNotExistFailsNamingIt() {
    client.setResource(ResourceTypes.LISTENER, LISTENER, ListenerUpdate.rds(LISTENER, "missing"));

    client.removeResource(ResourceTypes.ROUTE_CONFIGURATION, "missing");

    assertThat(lastError().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(lastError().getDescription())
        .isEqualTo("xds:///svc: listener svc: route configuration missing does not exist");
  }

  @Test
  void theAuthorityChoosesTheVirtualHostAndNoneMatchingFailsNamingIt() {
    RouteConfigurationUpdate three = new RouteConfigurationUpdate("r1", List.of(
        host("wild", List.of("*"), "wild"),
        host("other", List.of("other.example"), "other"),
        host("exact", List.of("svc"), "exact")));
    client.setResource(ResourceTypes.LISTENER, LISTENER, ListenerUpdate.inline(LISTENER, three));

    assertThat(routeOf(lastTable())).isEqualTo("exact");
    assertThat(lastTable().clusters()).containsExactly("exact");

    RouteConfigurationUpdate none = new RouteConfigurationUpdate("r1", List.of(
        host("other", List.of("other.example"), "other")));
    client.setResource(ResourceTypes.LISTENER, LISTENER, ListenerUpdate.inline(LISTENER, none));

    assertThat(lastError().getDescription()).isEqualTo(
        "xds:///svc: listener svc: the inline route configuration has no virtual host whose domains match authority"
            + " svc");
  }

  @Test
  void afterShutdownBothWatchesAreCancelledAndNothingIsHeard() {
    client.setResource(ResourceTypes.LISTENER, LISTENER, ListenerUpdate.rds(LISTENER, "r1"));
    client.setResource(ResourceTypes.ROUTE_CONFIGURATION, "r1", routes("r1", "a"));

    syncContext.execute(source::shutdown);

    assertThat(client.activeWatchCount(ResourceTypes.LISTENER)).isZero();
    assertThat(client.activeWatchCount(ResourceTypes.ROUTE_CONFIGURATION)).isZero();
    assertThat(heard).hasSize(1);
  }

  private RouteTable lastTable() {
    assertThat(heard).isNotEmpty();
    Object last = heard.get(heard.size() - 1);
    assertThat(last).as("the sink's last event").isInstanceOf(RouteTable.class);
    return (RouteTable) last;
  }

  private Status lastError() {
    assertThat(heard).isNotEmpty();
    Object last = heard.get(heard.size() - 1);
    assertThat(last).as("the sink's last event").isInstanceOf(Status.class);
    return (Status) last;
  }

  /** The cluster the table routes a call of {@link #METHOD} to. */
  private static String routeOf(RouteTable table) {
    RouteChoice choice = table.choose(call());
    assertThat(choice).isInstanceOf(RouteChoice.ToCluster.class);
    return ((RouteChoice.ToCluster) choice).cluster();
  }

  /** One virtual host for every domain whose one route sends everything to {@code cluster}. */
  private static RouteConfigurationUpdate routes(String name, String cluster) {
    return new RouteConfigurationUpdate(name, List.of(host("vh", List.of("*"), cluster)));
  }

  private static VirtualHost host(String name, List<String> domains, String cluster) {
    Route route = new Route("to-" + cluster, RouteMatch.path(new StringMatcher.Prefix("/", false)),
        new RouteAction.Cluster(cluster));
    return new VirtualHost(name, domains, List.of(route));
  }

  private static PickSubchannelArgs call() {
    return new PickSubchannelArgs() {
      @Override
      public CallOptions getCallOptions() {
        return CallOptions.DEFAULT;
      }

      @Override
      public Metadata getHeaders() {
        return new Metadata();
      }

      @Override
      public MethodDescriptor<?, ?> getMethodDescriptor() {
        return METHOD;
      }
    };
  }

  private static final class Bytes implements MethodDescriptor.Marshaller<byte[]> {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      return new byte[0];
    }
  }
}
