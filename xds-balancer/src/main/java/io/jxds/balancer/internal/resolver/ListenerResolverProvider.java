package io.jxds.balancer.internal.resolver;

import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import io.jxds.balancer.internal.SharedPoolClientSource;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the {@code xds} and {@code jxds} resolver providers share: the target {@code
 * SCHEME:[//AUTHORITY]/NAME} resolved by an {@link XdsNameResolver}.
 *
 * <p>Priority 4, as grpc-xds's own {@code xds} provider. gRPC's registry keeps, per scheme, the
 * provider of the highest priority, and among equals the first in its order, which sorts equal
 * priorities by class name, descending: {@code io.jxds...} comes before {@code io.grpc.xds...}, so
 * jxds serves {@code xds:} whenever both are on the class path (checked by {@code
 * XdsNameResolverProviderTest}). A priority of 5 would tie DNS's and make {@code xds} the default
 * scheme of every target without one, for the same reason of order.
 */
abstract class ListenerResolverProvider extends NameResolverProvider {
  private final String scheme;

  ListenerResolverProvider(String scheme) {
    this.scheme = Objects.requireNonNull(scheme, "scheme");
  }

  @Override
  public @Nullable NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
    if (!scheme.equals(targetUri.getScheme())) {
      return null;
    }
    return new XdsNameResolver(ListenerTarget.parse(targetUri), args, SharedPoolClientSource.INSTANCE,
        ListenerRouteSource.FACTORY, ListenerNaming.DEFAULT);
  }

  @Override
  public String getDefaultScheme() {
    return scheme;
  }

  @Override
  protected boolean isAvailable() {
    return true;
  }

  @Override
  protected int priority() {
    return 4;
  }

  @Override
  public Collection<Class<? extends SocketAddress>> getProducedSocketAddressTypes() {
    return List.of(InetSocketAddress.class);
  }
}
