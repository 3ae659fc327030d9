package io.jxds.balancer.internal.resolver;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Attributes;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ConnectivityState;
import io.grpc.Deadline;
import io.grpc.EquivalentAddressGroup;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.LoadBalancer;
import io.grpc.LoadBalancerProvider;
import io.grpc.LoadBalancerRegistry;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import io.grpc.NameResolverRegistry;
import io.grpc.Status;
import io.grpc.StatusOr;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Fails when a gRPC upgrade changes what {@link ConfigSelectorAdapter} relies on (ARCHITECTURE.md,
 * "Routing each call"): a real channel, a resolver that attaches a router, and a policy whose
 * picker records what each pick sees. Each test names one promise of the internal API.
 */
class ConfigSelectorGuardTest {
  private static final String SCHEME = "jxds-guard-test";
  private static final String POLICY = "jxds_guard_test";
  private static final CallOptions.Key<String> CHOSEN = CallOptions.Key.create("jxds.guard.chosen");

  private final TestBackends backends = new TestBackends();
  private final GuardResolverProvider resolvers = new GuardResolverProvider();
  private final GuardPolicyProvider policies = new GuardPolicyProvider();
  private final AtomicInteger routed = new AtomicInteger();
  private final List<CallOptions> picks = new CopyOnWriteArrayList<>();
  private volatile Function<NameResolver.Args, CallRoute> routes;
  private volatile GuardPolicy policy;
  /** Whether the guard policy's picks go to the backend (once READY) rather than queue. */
  private volatile boolean serving;
  private TestBackend backend;
  private ManagedChannel channel;

  @BeforeEach
  void setUp() {
    NameResolverRegistry.getDefaultRegistry().register(resolvers);
    LoadBalancerRegistry.getDefaultRegistry().register(policies);
    backend = backends.start("backend");
    channel = Grpc.newChannelBuilder(SCHEME + ":///guard", InsecureChannelCredentials.create()).build();
  }

  @AfterEach
  void tearDown() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    backends.close();
    NameResolverRegistry.getDefaultRegistry().deregister(resolvers);
    LoadBalancerRegistry.getDefaultRegistry().deregister(policies);
  }

  @Test
  void theChannelRoutesACallOnceAndEveryPickOfItSeesTheCallOptionsTheInterceptorSet() throws Exception {
    routes = args -> new CallRoute.Routed(parse(args, Map.of()), withOption(CHOSEN, "cluster-a"));

    Future<String> answer = callAsync(CallOptions.DEFAULT.withWaitForReady());
    Poll.until("a first pick, queued while the policy connects", () -> !picks.isEmpty());
    serve();

    assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo("backend");
    assertThat(picks).hasSizeGreaterThanOrEqualTo(2); // the queued pick, then the one that served
    assertThat(picks).allSatisfy(options -> assertThat(options.getOption(CHOSEN)).isEqualTo("cluster-a"));
    assertThat(routed).hasValue(1);
  }

  @Test
  void aFailedRouteClosesEvenAWaitForReadyCallWithItsStatusAndNeverPicks() throws Exception {
    routes = args -> new CallRoute.Failed(Status.UNAVAILABLE.withDescription("no route for the guard"));
    serve();

    Future<String> answer = callAsync(CallOptions.DEFAULT.withWaitForReady());

    StatusRuntimeException failure = awaitFailure(answer);
    assertThat(failure.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(failure.getStatus().getDescription()).isEqualTo("no route for the guard");
    assertThat(picks).isEmpty();
  }

  @Test
  void theMethodConfigOfTheRoutedConfigAppliesToTheCall() throws Exception {
    Map<String, ?> sevenSeconds = Map.of("methodConfig", List.of(Map.of("name", List.of(Map.of()), "timeout", "7s")));
    routes = args -> new CallRoute.Routed(parse(args, sevenSeconds), withOption(CHOSEN, "cluster-a"));
    serve();

    assertThat(callAsync(CallOptions.DEFAULT).get(10, TimeUnit.SECONDS)).isEqualTo("backend");

    Deadline deadline = picks.get(picks.size() - 1).getDeadline();
    assertThat(deadline).isNotNull();
    assertThat(deadline.timeRemaining(TimeUnit.MILLISECONDS)).isBetween(1L, 7_000L);
  }

  private void serve() {
    serving = true;
    GuardPolicy current = policy;
    if (current != null) {
      current.republish();
    }
  }

  /** Starts a call without a thread of its own (a pool's thread may be busy in a loaded suite). */
  private Future<String> callAsync(CallOptions options) {
    Future<byte[]> answer = ClientCalls.futureUnaryCall(
        channel.newCall(TestBackend.NAME_METHOD, options.withDeadlineAfter(10, TimeUnit.SECONDS)), new byte[0]);
    return new Future<>() {
      @Override
      public boolean cancel(boolean mayInterruptIfRunning) {
        return answer.cancel(mayInterruptIfRunning);
      }

      @Override
      public boolean isCancelled() {
        return answer.isCancelled();
      }

      @Override
      public boolean isDone() {
        return answer.isDone();
      }

      @Override
      public String get() throws InterruptedException, ExecutionException {
        return new String(answer.get(), StandardCharsets.UTF_8);
      }

      @Override
      public String get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException,
          TimeoutException {
        return new String(answer.get(timeout, unit), StandardCharsets.UTF_8);
      }
    };
  }

  private static StatusRuntimeException awaitFailure(Future<String> answer) throws Exception {
    try {
      String value = answer.get(10, TimeUnit.SECONDS);
      throw new AssertionError("the call succeeded: " + value);
    } catch (ExecutionException e) {
      return (StatusRuntimeException) e.getCause();
    }
  }

  private static Object parse(NameResolver.Args args, Map<String, ?> serviceConfig) {
    NameResolver.ConfigOrError parsed = args.getServiceConfigParser().parseServiceConfig(serviceConfig);
    assertThat(parsed.getError()).isNull();
    return parsed.getConfig();
  }

  private static ClientInterceptor withOption(CallOptions.Key<String> key, String value) {
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        return next.newCall(method, options.withOption(key, value));
      }
    };
  }

  /** Resolves to the backend's address, the guard policy and a router that asks the test. */
  private final class GuardResolverProvider extends NameResolverProvider {
    @Override
    protected boolean isAvailable() {
      return true;
    }

    @Override
    protected int priority() {
      return 3;
    }

    @Override
    public String getDefaultScheme() {
      return SCHEME;
    }

    @Override
    public Collection<Class<? extends SocketAddress>> getProducedSocketAddressTypes() {
      return List.of(InetSocketAddress.class);
    }

    @Override
    public NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
      if (!SCHEME.equals(targetUri.getScheme())) {
        return null;
      }
      return new NameResolver() {
        @Override
        public String getServiceAuthority() {
          return "guard";
        }

        @Override
        public void start(Listener2 listener) {
          CallRouter router = call -> {
            routed.incrementAndGet();
            return routes.apply(args);
          };
          ResolutionResult result = ResolutionResult.newBuilder()
              .setAddressesOrError(StatusOr.fromValue(List.of(new EquivalentAddressGroup(backend.address()))))
              .setServiceConfig(args.getServiceConfigParser().parseServiceConfig(
                  Map.of("loadBalancingConfig", List.of(Map.of(POLICY, Map.of())))))
              .setAttributes(ConfigSelectorAdapter.attach(Attributes.EMPTY, router))
              .build();
          args.getSynchronizationContext().execute(() -> listener.onResult2(result));
        }

        @Override
        public void shutdown() {}
      };
    }
  }

  private final class GuardPolicyProvider extends LoadBalancerProvider {
    @Override
    public boolean isAvailable() {
      return true;
    }

    @Override
    public int getPriority() {
      return 5;
    }

    @Override
    public String getPolicyName() {
      return POLICY;
    }

    @Override
    public LoadBalancer newLoadBalancer(LoadBalancer.Helper helper) {
      GuardPolicy created = new GuardPolicy(helper);
      policy = created;
      return created;
    }

    @Override
    public NameResolver.ConfigOrError parseLoadBalancingPolicyConfig(Map<String, ?> rawConfig) {
      return NameResolver.ConfigOrError.fromConfig("guard");
    }
  }

  /**
   * One subchannel to the backend; every pick is recorded, and queues until the test serves and
   * the subchannel is READY.
   */
  private final class GuardPolicy extends LoadBalancer {
    private final Helper helper;
    private Subchannel subchannel;
    private boolean ready;

    GuardPolicy(Helper helper) {
      this.helper = helper;
    }

    @Override
    public Status acceptResolvedAddresses(ResolvedAddresses resolved) {
      if (subchannel == null) {
        subchannel = helper.createSubchannel(
            CreateSubchannelArgs.newBuilder().setAddresses(resolved.getAddresses()).build());
        subchannel.start(info -> {
          ready = info.getState() == ConnectivityState.READY;
          publish();
        });
        subchannel.requestConnection();
        publish();
      }
      return Status.OK;
    }

    void republish() {
      helper.getSynchronizationContext().execute(this::publish);
    }

    private void publish() {
      boolean open = ready && serving;
      PickResult result = open ? PickResult.withSubchannel(subchannel) : PickResult.withNoResult();
      helper.updateBalancingState(open ? ConnectivityState.READY : ConnectivityState.CONNECTING,
          new SubchannelPicker() {
            @Override
            public PickResult pickSubchannel(PickSubchannelArgs args) {
              picks.add(args.getCallOptions());
              return result;
            }
          });
    }

    @Override
    public void handleNameResolutionError(Status error) {}

    @Override
    public void shutdown() {
      if (subchannel != null) {
        subchannel.shutdown();
      }
    }
  }
}
