package io.jxds.balancer.priority;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
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
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusOr;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.LocalityId;
import io.jxds.balancer.locality.LocalityConfig;
import io.jxds.balancer.locality.LocalityGroup;
import io.jxds.testing.TestRandom;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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

  private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };
  private static final MethodDescriptor<byte[], byte[]> WHO = MethodDescriptor.<byte[], byte[]>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY)
      .setFullMethodName("jxds.test.Who/Name")
      .setRequestMarshaller(BYTES)
      .setResponseMarshaller(BYTES)
      .build();

  private final Map<String, Server> servers = new HashMap<>();
  private final Map<String, Integer> ports = new HashMap<>();
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
    for (Server server : servers.values()) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void trafficSplitsAcrossLocalitiesAndFailsOverAndBack() throws Exception {
    start("a", 0);
    start("b", 0);
    start("c", 0);
    PROVIDER.config = new PriorityConfig("e2e", List.of(
            LocalityGroup.of(locality("a", 1), locality("b", 3)),
            LocalityGroup.of(locality("c", 1))),
        Duration.ofMillis(500), Duration.ofMinutes(15));
    channel = Grpc.newChannelBuilder(SCHEME + ":///e2e", InsecureChannelCredentials.create())
        .defaultLoadBalancingPolicy(POLICY)
        .build();

    // Warm up until both priority-0 localities are READY, then measure the split.
    awaitServedBy(Map.of("a", 1, "b", 1), 10_000);
    Map<String, Integer> split = calls(400);
    assertThat(split).containsOnlyKeys("a", "b");
    assertThat(split.get("a")).isBetween(80, 120); // weight 1 of 4: 25 %

    // Every priority-0 server stops: RPCs move to priority 1, none fails.
    stop("a");
    stop("b");
    Map<String, Integer> afterFailover = calls(50);
    assertThat(afterFailover.getOrDefault("failed", 0)).isLessThanOrEqualTo(1); // in flight
    assertThat(afterFailover.get("c")).isGreaterThanOrEqualTo(49);

    // They come back: traffic returns to priority 0.
    start("a", ports.get("a"));
    start("b", ports.get("b"));
    channel.resetConnectBackoff();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    Map<String, Integer> recent = Map.of();
    while (System.nanoTime() < deadline) {
      recent = calls(20);
      if (recent.getOrDefault("a", 0) + recent.getOrDefault("b", 0) == 20) {
        break;
      }
      Thread.sleep(50);
    }
    assertThat(recent).containsOnlyKeys("a", "b");
  }

  /** A locality named {@code name} holding the one server of that name. */
  private LocalityConfig locality(String name, long weight) {
    return new LocalityConfig(new LocalityId("e2e", name, ""), weight,
        List.of(Endpoint.of(new InetSocketAddress("127.0.0.1", ports.get(name)))));
  }

  private void start(String name, int port) throws IOException {
    ServerServiceDefinition service = ServerServiceDefinition.builder("jxds.test.Who")
        .addMethod(WHO, ServerCalls.asyncUnaryCall((request, observer) -> {
          observer.onNext(name.getBytes(StandardCharsets.UTF_8));
          observer.onCompleted();
        }))
        .build();
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
        .addService(service)
        .build()
        .start();
    servers.put(name, server);
    ports.put(name, server.getPort());
  }

  private void stop(String name) throws InterruptedException {
    servers.remove(name).shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  /** {@code n} sequential RPCs; counts answers per server name, and failures as "failed". */
  private Map<String, Integer> calls(int n) {
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < n; i++) {
      try {
        byte[] reply = ClientCalls.blockingUnaryCall(channel, WHO,
            CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS), new byte[0]);
        counts.merge(new String(reply, StandardCharsets.UTF_8), 1, Integer::sum);
      } catch (StatusRuntimeException e) {
        counts.merge("failed", 1, Integer::sum);
      }
    }
    return counts;
  }

  private void awaitServedBy(Map<String, Integer> atLeast, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    Map<String, Integer> seen = new HashMap<>();
    while (System.nanoTime() < deadline) {
      calls(10).forEach((k, v) -> seen.merge(k, v, Integer::sum));
      if (atLeast.entrySet().stream().allMatch(e -> seen.getOrDefault(e.getKey(), 0) >= e.getValue())) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("not served by " + atLeast + " in time: " + seen);
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
      return 5;
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
