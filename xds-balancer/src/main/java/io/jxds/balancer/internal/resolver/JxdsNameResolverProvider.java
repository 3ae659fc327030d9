package io.jxds.balancer.internal.resolver;

/**
 * Resolves {@code jxds:[//AUTHORITY]/LISTENER} exactly as {@code xds:}, under a scheme only jxds
 * registers, so that it selects jxds whatever else is on the class path. Registered through {@code
 * META-INF/services/io.grpc.NameResolverProvider}.
 */
public final class JxdsNameResolverProvider extends ListenerResolverProvider {
  /** The scheme. */
  public static final String SCHEME = "jxds";

  /** Creates the provider; gRPC's registry does, through the service declaration. */
  public JxdsNameResolverProvider() {
    super(SCHEME);
  }
}
