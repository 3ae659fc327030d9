package io.jxds.balancer.internal.resolver;

/**
 * Resolves {@code xds:[//AUTHORITY]/LISTENER} with jxds (ARCHITECTURE.md, "Routing each call"), in
 * place of grpc-xds's resolver when both are on the class path (see {@link
 * ListenerResolverProvider}). Registered through {@code META-INF/services/io.grpc.NameResolverProvider}.
 */
public final class XdsNameResolverProvider extends ListenerResolverProvider {
  /** The scheme. */
  public static final String SCHEME = "xds";

  /** Creates the provider; gRPC's registry does, through the service declaration. */
  public XdsNameResolverProvider() {
    super(SCHEME);
  }
}
