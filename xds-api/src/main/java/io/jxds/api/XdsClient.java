package io.jxds.api;

import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.RouteConfigurationUpdate;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Watches xDS resources over one ADS stream to a control plane, with a per-resource cache: a
 * watcher of a cached resource gets its value at once, and a lost stream never throws cached
 * values away.
 *
 * <p>All methods are thread-safe and return without waiting for the network.
 *
 * <p>Closing is the owner's business: a client you built, you close; a client a
 * {@code XdsClientPool} shares is closed by releasing its lease (its {@code close()} refuses), and
 * a client handed to the {@code xds_cluster} policy is never closed by jxds.
 */
public interface XdsClient extends AutoCloseable {
  /**
   * Starts watching a resource.
   *
   * @param <T> the resource's model type
   * @param type what kind of resource, e.g. {@link ResourceTypes#CLUSTER}
   * @param name the resource's name
   * @param watcher receives the resource's changes
   * @param executor runs the watcher's callbacks, one at a time
   * @return a handle whose {@link WatchHandle#cancel()} stops the watch
   * @throws IllegalArgumentException if the same watcher object already watches this resource
   */
  <T> WatchHandle watch(ResourceType<T> type, String name, ResourceWatcher<T> watcher, Executor executor);

  /**
   * Watches a Cluster (CDS) resource: {@link #watch} with {@link ResourceTypes#CLUSTER}.
   *
   * @param name the cluster's name
   * @param watcher receives the cluster's changes
   * @param executor runs the watcher's callbacks, one at a time
   * @return a handle whose {@link WatchHandle#cancel()} stops the watch
   */
  default WatchHandle watchCluster(String name, ResourceWatcher<ClusterUpdate> watcher, Executor executor) {
    return watch(ResourceTypes.CLUSTER, name, watcher, executor);
  }

  /**
   * Watches a ClusterLoadAssignment (EDS) resource: {@link #watch} with
   * {@link ResourceTypes#ENDPOINTS}.
   *
   * @param name the EDS service name (a cluster's {@code eds_cluster_config.service_name}, or its
   *     name)
   * @param watcher receives the assignment's changes
   * @param executor runs the watcher's callbacks, one at a time
   * @return a handle whose {@link WatchHandle#cancel()} stops the watch
   */
  default WatchHandle watchEndpoints(
      String name, ResourceWatcher<EndpointsUpdate> watcher, Executor executor) {
    return watch(ResourceTypes.ENDPOINTS, name, watcher, executor);
  }

  /**
   * Watches a Listener (LDS) resource: {@link #watch} with {@link ResourceTypes#LISTENER}.
   *
   * @param name the listener's name, e.g. the target's {@code host:port}
   * @param watcher receives the listener's changes
   * @param executor runs the watcher's callbacks, one at a time
   * @return a handle whose {@link WatchHandle#cancel()} stops the watch
   */
  default WatchHandle watchListener(String name, ResourceWatcher<ListenerUpdate> watcher, Executor executor) {
    return watch(ResourceTypes.LISTENER, name, watcher, executor);
  }

  /**
   * Watches a RouteConfiguration (RDS) resource: {@link #watch} with
   * {@link ResourceTypes#ROUTE_CONFIGURATION}.
   *
   * @param name the route configuration's name, as a listener's {@code rds.route_config_name} gives it
   * @param watcher receives the route configuration's changes
   * @param executor runs the watcher's callbacks, one at a time
   * @return a handle whose {@link WatchHandle#cancel()} stops the watch
   */
  default WatchHandle watchRouteConfiguration(
      String name, ResourceWatcher<RouteConfigurationUpdate> watcher, Executor executor) {
    return watch(ResourceTypes.ROUTE_CONFIGURATION, name, watcher, executor);
  }

  /**
   * The latest snapshot of the client's state. Never blocks, so it may be called from a watcher
   * callback.
   *
   * @return the stream's state and every subscribed resource, as of this call
   */
  XdsClientStatus status();

  /**
   * The certificate providers of the bootstrap this client was created from (gRFC A29), by instance
   * name: what a cluster's TLS context refers to. A client validates clusters against these names.
   *
   * @return the providers; empty for a client without any (the default)
   */
  default Map<String, CertificateProvider> certificateProviders() {
    return Map.of();
  }

  /**
   * Stops the client: its stream, its timers and every watch; no callback starts after this
   * returns. Idempotent.
   *
   * @throws IllegalStateException if this client is not the caller's to close (a pooled client:
   *     close its lease instead)
   */
  @Override
  void close();
}
