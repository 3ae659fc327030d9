package io.jxds.balancer.internal.dns;

import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer;
import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import io.grpc.NameResolverRegistry;
import io.grpc.Status;
import io.grpc.StatusOr;
import io.grpc.util.ForwardingLoadBalancerHelper;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code dns} name resolver provider whose one resolver the test answers for, registered in a
 * channel's own {@code NameResolverRegistry} in place of gRPC's DNS resolver.
 */
public final class ScriptedDns extends NameResolverProvider {
  /** Every target a resolver was asked for. */
  public final List<URI> targets = new ArrayList<>();
  /** The last resolver made; null before the first. */
  public Resolver resolver;
  /** How many times a resolver was asked to resolve again. */
  public int refreshes;

  /** {@code delegate} with a name resolver registry that holds this provider only. */
  public LoadBalancer.Helper helperOver(LoadBalancer.Helper delegate) {
    NameResolverRegistry registry = new NameResolverRegistry();
    registry.register(this);
    return new ForwardingLoadBalancerHelper() {
      @Override
      protected LoadBalancer.Helper delegate() {
        return delegate;
      }

      @Override
      public NameResolverRegistry getNameResolverRegistry() {
        return registry;
      }
    };
  }

  @Override
  public NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
    targets.add(targetUri);
    resolver = new Resolver(this);
    return resolver;
  }

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
    return "dns";
  }

  /** A resolver that answers what the test tells it to. */
  public static final class Resolver extends NameResolver {
    private final ScriptedDns provider;
    private Listener2 listener;
    /** Whether the balancer shut it down. */
    public boolean shutdown;

    Resolver(ScriptedDns provider) {
      this.provider = provider;
    }

    @Override
    public String getServiceAuthority() {
      return "backend.example";
    }

    @Override
    public void start(Listener2 listener) {
      this.listener = listener;
    }

    @Override
    public void refresh() {
      provider.refreshes++;
    }

    @Override
    public void shutdown() {
      shutdown = true;
    }

    /** Answers with {@code groups} (gRPC's DNS resolver gives one group per address). */
    public void resolve(List<EquivalentAddressGroup> groups) {
      listener.onResult2(ResolutionResult.newBuilder().setAddressesOrError(StatusOr.fromValue(groups)).build());
    }

    /** Answers with an error. */
    public void fail(Status status) {
      listener.onResult2(ResolutionResult.newBuilder().setAddressesOrError(StatusOr.fromStatus(status)).build());
    }
  }
}
