package io.jxds.balancer.internal.dns;

import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer.Helper;
import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import io.grpc.NameResolverRegistry;
import io.grpc.Status;
import io.grpc.StatusOr;
import io.grpc.SynchronizationContext;
import io.grpc.SynchronizationContext.ScheduledHandle;
import io.jxds.api.model.LogicalDns;
import java.net.SocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The DNS source of a LOGICAL_DNS cluster (gRFC A37): {@code dns:///host:port} through the
 * channel's {@link NameResolverRegistry} (gRPC's own DNS resolver; jxds resolves nothing itself),
 * without service config. Every address of a result, in order, goes to {@link Listener#onAddresses};
 * a failed resolution goes to {@link Listener#onError} and is retried with backoff (1 s, ×1.6, at
 * most 120 s) until one succeeds. {@link #refresh} asks for a new resolution (the resolver may answer
 * from its cache).
 *
 * <p>Used on the SynchronizationContext; the resolver calls back on it.
 */
final class DnsResolution {
  private static final long INITIAL_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(120);

  /** What a resolution gives. */
  interface Listener {
    /** The name resolved to {@code addresses}, not empty, in the resolver's order. */
    void onAddresses(List<SocketAddress> addresses);

    /** The name did not resolve. */
    void onError(Status error);
  }

  private final Helper helper;
  private final SynchronizationContext syncContext;
  private final LogicalDns name;
  private final Listener listener;
  private NameResolver resolver;
  private ScheduledHandle retry;
  private long backoffNanos = INITIAL_BACKOFF_NANOS;
  private boolean shutdown;

  DnsResolution(Helper helper, LogicalDns name, Listener listener) {
    this.helper = helper;
    this.syncContext = helper.getSynchronizationContext();
    this.name = name;
    this.listener = listener;
  }

  void start() {
    NameResolverProvider provider = registry().getProviderForScheme("dns");
    if (provider == null) {
      listener.onError(Status.UNAVAILABLE.withDescription("no \"dns\" name resolver is registered"));
      return;
    }
    try {
      URI target = new URI("dns", "", "/" + name.target(), null);
      resolver = provider.newNameResolver(target, args());
    } catch (URISyntaxException | RuntimeException e) {
      listener.onError(Status.UNAVAILABLE.withDescription("not a DNS name: " + e.getMessage()).withCause(e));
      return;
    }
    if (resolver == null) {
      listener.onError(Status.UNAVAILABLE.withDescription("the \"dns\" name resolver does not take it"));
      return;
    }
    resolver.start(new NameResolver.Listener2() {
      @Override
      public void onResult(NameResolver.ResolutionResult result) {
        onResult2(result);
      }

      @Override
      public Status onResult2(NameResolver.ResolutionResult result) {
        syncContext.throwIfNotInThisSynchronizationContext();
        return DnsResolution.this.onResult(result.getAddressesOrError());
      }

      @Override
      public void onError(Status error) {
        syncContext.throwIfNotInThisSynchronizationContext();
        DnsResolution.this.onResult(StatusOr.fromStatus(error));
      }
    });
  }

  /** Resolves again, unless a retry is already waiting. */
  void refresh() {
    if (!shutdown && resolver != null && retry == null) {
      resolver.refresh();
    }
  }

  void shutdown() {
    shutdown = true;
    if (retry != null) {
      retry.cancel();
      retry = null;
    }
    if (resolver != null) {
      resolver.shutdown();
      resolver = null;
    }
  }

  private Status onResult(StatusOr<List<EquivalentAddressGroup>> result) {
    if (shutdown) {
      return Status.OK;
    }
    Status error = result.hasValue() ? null : result.getStatus();
    List<SocketAddress> addresses = new ArrayList<>();
    if (error == null) {
      for (EquivalentAddressGroup group : result.getValue()) {
        addresses.addAll(group.getAddresses());
      }
      if (addresses.isEmpty()) {
        error = Status.UNAVAILABLE.withDescription("resolved to no address");
      }
    }
    if (error != null) {
      listener.onError(error);
      scheduleRetry();
      return error;
    }
    backoffNanos = INITIAL_BACKOFF_NANOS;
    listener.onAddresses(List.copyOf(addresses));
    return Status.OK;
  }

  private void scheduleRetry() {
    if (retry != null || shutdown) {
      return;
    }
    long delay = backoffNanos;
    backoffNanos = Math.min(MAX_BACKOFF_NANOS, (long) (backoffNanos * 1.6));
    retry = syncContext.schedule(() -> {
      retry = null;
      refresh();
    }, delay, TimeUnit.NANOSECONDS, helper.getScheduledExecutorService());
  }

  private NameResolverRegistry registry() {
    try {
      NameResolverRegistry registry = helper.getNameResolverRegistry();
      return registry == null ? NameResolverRegistry.getDefaultRegistry() : registry;
    } catch (UnsupportedOperationException e) {
      return NameResolverRegistry.getDefaultRegistry();
    }
  }

  /** The channel's resolver arguments; a helper that has none (tests, other parents) gets minimal ones. */
  private NameResolver.Args args() {
    try {
      NameResolver.Args args = helper.getNameResolverArgs();
      if (args != null) {
        return args;
      }
    } catch (UnsupportedOperationException e) {
      // fall through
    }
    return NameResolver.Args.newBuilder()
        .setDefaultPort(443)
        .setProxyDetector(address -> null)
        .setSynchronizationContext(syncContext)
        .setScheduledExecutorService(helper.getScheduledExecutorService())
        .setChannelLogger(helper.getChannelLogger())
        .setServiceConfigParser(new NameResolver.ServiceConfigParser() {
          @Override
          public NameResolver.ConfigOrError parseServiceConfig(Map<String, ?> rawServiceConfig) {
            return NameResolver.ConfigOrError.fromConfig(rawServiceConfig);
          }
        })
        .build();
  }
}
