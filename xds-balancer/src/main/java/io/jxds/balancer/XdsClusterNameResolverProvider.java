package io.jxds.balancer;

import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import io.grpc.Status;
import io.grpc.StatusOr;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Resolves {@code xds-cluster:///NAME} to no addresses and the service config
 * {@code {"loadBalancingConfig":[{"xds_cluster":{"cluster":"NAME"}}]}}, so that
 * {@code ManagedChannelBuilder.forTarget("xds-cluster:///payments")} is all a user writes. The
 * path is percent-decoded, so {@link XdsClusterPolicy#target} can carry any cluster name; a target
 * with a query or fragment (a name with {@code ?} or {@code #} written as is) is rejected, naming
 * that method.
 * Registered through {@code META-INF/services/io.grpc.NameResolverProvider}.
 */
public final class XdsClusterNameResolverProvider extends NameResolverProvider {
  /** Creates the provider; gRPC's registry does, through the service declaration. */
  public XdsClusterNameResolverProvider() {}

  @Override
  public @Nullable NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
    if (!XdsClusterPolicy.TARGET_SCHEME.equals(targetUri.getScheme())) {
      return null;
    }
    // getPath() decodes the %XX escapes XdsClusterPolicy.target writes.
    String path = targetUri.getPath();
    String cluster = path == null || path.length() <= 1 ? "" : path.substring(1);
    if (targetUri.getRawQuery() != null || targetUri.getRawFragment() != null) {
      // A name holding '?' or '#' written as is: gRPC cut it into path, query and fragment.
      String written = cluster
          + (targetUri.getRawQuery() == null ? "" : "?" + targetUri.getQuery())
          + (targetUri.getRawFragment() == null ? "" : "#" + targetUri.getFragment());
      throw new IllegalArgumentException("target " + targetUri + ": a cluster name cannot hold '?' or '#' as is"
          + " (the target's query and fragment start there); build the target with XdsClusterPolicy.target(\""
          + written + "\"), which percent-encodes them");
    }
    if (cluster.isEmpty()) {
      throw new IllegalArgumentException("target " + targetUri
          + ": expected xds-cluster:///CLUSTER_NAME with a non-empty cluster name (XdsClusterPolicy.target(NAME)"
          + " builds it)");
    }
    return new XdsClusterNameResolver(cluster, args);
  }

  @Override
  public String getDefaultScheme() {
    return XdsClusterPolicy.TARGET_SCHEME;
  }

  @Override
  protected boolean isAvailable() {
    return true;
  }

  /**
   * Below DNS's 5: the registry takes its default scheme from the highest-priority provider, and
   * a scheme-less target such as {@code 127.0.0.1:18000} (an ADS server URI) must stay DNS.
   */
  @Override
  protected int priority() {
    return 4;
  }

  @Override
  public Collection<Class<? extends SocketAddress>> getProducedSocketAddressTypes() {
    return List.of(InetSocketAddress.class);
  }

  /**
   * Resolves on start and again on every {@link #refresh()}. The result never changes, but the
   * balancer may have been unable to use it (no bootstrap yet: the xds_cluster policy reads it
   * when it acquires a client), and a refresh is how the channel retries, with backoff, after the
   * balancer rejected a result.
   */
  private static final class XdsClusterNameResolver extends NameResolver {
    private final String cluster;
    private final NameResolver.Args args;
    private @Nullable Listener2 listener;
    private @Nullable ResolutionResult result;
    private boolean shutdown;

    XdsClusterNameResolver(String cluster, NameResolver.Args args) {
      this.cluster = cluster;
      this.args = args;
    }

    @Override
    public String getServiceAuthority() {
      return cluster;
    }

    @Override
    public void start(Listener2 listener) {
      this.listener = listener;
      Map<String, ?> serviceConfig = Map.of(
          "loadBalancingConfig", List.of(Map.of(XdsClusterPolicy.POLICY_NAME, Map.of("cluster", cluster))));
      ConfigOrError parsed = args.getServiceConfigParser().parseServiceConfig(serviceConfig);
      if (parsed.getError() != null) {
        listener.onError(Status.UNAVAILABLE.withDescription(
            "xds-cluster:///" + cluster + ": service config rejected: " + parsed.getError().getDescription()));
        return;
      }
      // No addresses on purpose: the xds_cluster policy finds the endpoints itself.
      result = ResolutionResult.newBuilder()
          .setAddressesOrError(StatusOr.fromValue(List.of()))
          .setServiceConfig(parsed)
          .build();
      deliver();
    }

    @Override
    public void refresh() {
      if (result != null) {
        deliver();
      }
    }

    /**
     * Queued rather than called inline, so that the channel sees the result after the call that
     * asked for it returns; the channel's listener decides on retries from the status it returns.
     */
    private void deliver() {
      // start() set both before the first call; neither changes after.
      Listener2 to = Objects.requireNonNull(listener, "listener");
      ResolutionResult delivered = Objects.requireNonNull(result, "result");
      args.getSynchronizationContext().execute(() -> {
        if (!shutdown) {
          to.onResult2(delivered);
        }
      });
    }

    @Override
    public void shutdown() {
      shutdown = true;
    }
  }
}
