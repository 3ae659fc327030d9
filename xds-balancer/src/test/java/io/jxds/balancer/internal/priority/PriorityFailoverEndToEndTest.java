package io.jxds.balancer.internal.priority;

import static io.jxds.testing.BackendCalls.awaitCalls;
import static io.jxds.testing.BackendCalls.calls;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.LoadBalancer;
import io.grpc.LoadBalancerProvider;
import io.grpc.LoadBalancerRegistry;
import io.grpc.ManagedChannel;
import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import io.grpc.NameResolverRegistry;
import io.grpc.Status;
import io.grpc.StatusOr;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.LocalityId;
import io.jxds.balancer.internal.locality.LocalityConfig;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackends;
import io.jxds.testing.TestRandom;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Real gRPC servers on 127.0.0.1 and a real channel whose policy feeds a static {@link
 * PriorityConfig} to a {@link PriorityBalancer}; the resolver returns no addresses at all.
 */
class PriorityFailoverEndToEndTest {
  private static final String POLICY = "jxds_test_static_priority";
  private static final String SCHEME = "jxds-test-static";
  private static final StaticPolicy PROVIDER = new StaticPolicy();
  private static final EmptyResolverProvider RESOLVER = new EmptyResolverProvider();

  private final TestBackends backends = new TestBackends();
  private ManagedChannel channel;

  @BeforeAll
  static void register() {
    LoadBalancerRegistry.getDefaultRegistry().register(PROVIDER);
    NameResolverRegistry.getDefaultRegistry().register(RESOLVER);
  }

  @AfterAll
  static void deregister() {
    LoadBalancerRegistry.getDefaultRegistry().deregister(PROVIDER);
    NameResolverRegistry.getDefaultRegistry().deregister(RESOLVER);
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    backends.close();
  }

  @Test
  void trafficSplitsAcrossLocalitiesAndFailsOverAndBack() throws Exception {
    backends.start("a");
    backends.start("b");
    backends.start("c");
    PROVIDER.config = new PriorityConfig("e2e", List.of(
            LocalityGroup.of(locality("a", 1), locality("b", 3)),
            LocalityGroup.of(locality("c", 1))),
        Duration.ofMillis(500), Duration.ofMinutes(15));
    channel = Grpc.newChannelBuilder(SCHEME + ":///e2e", InsecureChannelCredentials.create())
        .defaultLoadBalancingPolicy(POLICY)
        .build();

    // Warm up until both priority-0 localities are READY, then measure the split.
    awaitCalls(channel, 8, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 2 && w.getOrDefault("b", 0) == 6);
    Map<String, Integer> split = calls(channel, 400);
    assertThat(split).containsOnlyKeys("a", "b");
    assertThat(split.get("a")).isBetween(80, 120); // weight 1 of 4: 25 %

    // Every priority-0 server stops under live traffic (one RPC in flight at a time): RPCs move
    // to priority 1, and only RPCs in flight on a stopping server fail: at most one per server,
    // since the two servers stop a few microseconds apart.
    Map<String, Integer> live = new ConcurrentHashMap<>();
    AtomicBoolean running = new AtomicBoolean(true);
    Thread load = new Thread(() -> {
      while (running.get()) {
        live.merge(BackendCalls.call(channel), 1, Integer::sum);
      }
    });
    load.start();
    int bTarget = live.getOrDefault("b", 0) + 5;
    Poll.until(() -> "5 more calls to b: " + live, Duration.ofSeconds(10), () -> live.getOrDefault("b", 0) >= bTarget);
    backends.stop("a", "b");
    Poll.until(() -> "50 calls to c: " + live, Duration.ofSeconds(10), () -> live.getOrDefault("c", 0) >= 50);
    running.set(false);
    load.join(10_000);
    assertThat(live.getOrDefault(BackendCalls.FAILED, 0)).isLessThanOrEqualTo(2);
    assertThat(calls(channel, 50)).containsOnlyKeys("c");

    // They come back: traffic returns to priority 0.
    backends.restart("a");
    backends.restart("b");
    channel.resetConnectBackoff();
    Map<String, Integer> recent = awaitCalls(channel, 20, Duration.ofSeconds(10),
        w -> w.getOrDefault("a", 0) + w.getOrDefault("b", 0) == 20);
    assertThat(recent).containsOnlyKeys("a", "b");
  }

  /** A locality named {@code name} holding the one backend of that name. */
  private LocalityConfig locality(String name, long weight) {
    return new LocalityConfig(new LocalityId("e2e", name, ""), weight,
        List.of(Endpoint.of(backends.get(name).address())));
  }

  /** The channel's policy: a PriorityBalancer fed the test's static config. */
  private static final class StaticPolicy extends LoadBalancerProvider {
    volatile PriorityConfig config;

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
      PriorityBalancer balancer = new PriorityBalancer(helper, TestRandom.seeded(5));
      return new LoadBalancer() {
        @Override
        public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
          return balancer.acceptResolvedAddresses(
              resolvedAddresses.toBuilder().setLoadBalancingPolicyConfig(config).build());
        }

        @Override
        public void handleNameResolutionError(Status error) {
          balancer.handleNameResolutionError(error);
        }

        @Override
        public void shutdown() {
          balancer.shutdown();
        }
      };
    }
  }

  /** {@code jxds-test-static:///x} resolves to no addresses. */
  private static final class EmptyResolverProvider extends NameResolverProvider {
    @Override
    protected boolean isAvailable() {
      return true;
    }

    @Override
    protected int priority() {
      return 4; // below DNS: never the registry's default scheme
    }

    @Override
    public String getDefaultScheme() {
      return SCHEME;
    }

    @Override
    public NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
      if (!SCHEME.equals(targetUri.getScheme())) {
        return null;
      }
      return new NameResolver() {
        @Override
        public String getServiceAuthority() {
          return "e2e";
        }

        @Override
        public void start(Listener2 listener) {
          listener.onResult(ResolutionResult.newBuilder()
              .setAddressesOrError(StatusOr.fromValue(List.of()))
              .build());
        }

        @Override
        public void shutdown() {}
      };
    }
  }
}
