package io.jxds.client.bootstrap;

import java.util.List;
import java.util.Objects;

/**
 * One entry of the bootstrap's {@code xds_servers}.
 *
 * @param serverUri {@code server_uri}: a gRPC target such as {@code localhost:18000}
 * @param channelCredentials the first {@code channel_creds} entry jxds supports
 * @param serverFeatures {@code server_features}, as written
 */
public record ServerInfo(
    String serverUri, ChannelCredentialsSpec channelCredentials, List<String> serverFeatures) {
  /** gRFC A53: the server may leave a cached CDS/LDS resource out of a response without deleting it. */
  public static final String IGNORE_RESOURCE_DELETION = "ignore_resource_deletion";
  /**
   * jxds only: speak delta (incremental) xDS, {@code DeltaAggregatedResources}, to this server
   * instead of state of the world. Other gRPC clients ignore server features they do not know.
   */
  public static final String DELTA = "jxds.delta";

  /**
   * Creates a server entry; the feature list is copied.
   *
   * @param serverUri the gRPC target
   * @param channelCredentials the credentials
   * @param serverFeatures the server features
   */
  public ServerInfo {
    Objects.requireNonNull(serverUri, "serverUri");
    Objects.requireNonNull(channelCredentials, "channelCredentials");
    serverFeatures = List.copyOf(serverFeatures);
  }

  /**
   * Whether {@code server_features} holds {@value #IGNORE_RESOURCE_DELETION}.
   *
   * @return true if the server may leave a resource out of a response without deleting it
   */
  public boolean ignoreResourceDeletion() {
    return serverFeatures.contains(IGNORE_RESOURCE_DELETION);
  }

  /**
   * Whether {@code server_features} holds {@value #DELTA}: the client speaks delta xDS to this
   * server.
   *
   * @return true for delta xDS, false for state of the world (the default)
   */
  public boolean delta() {
    return serverFeatures.contains(DELTA);
  }
}
