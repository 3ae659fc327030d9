package io.jxds.toolkit;

import io.jxds.toolkit.internal.plan.RequestRouter;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The traffic plan of a {@link Snapshot}: one {@link ListenerPlan} per Listener (its route tables),
 * one {@link ClusterPlan} per Cluster, in the snapshot's order, and the check they were built on.
 *
 * @param check every resource's verdict
 * @param listeners one plan per listener name (the last Listener of a name)
 * @param clusters one plan per cluster name (the last Cluster of a name)
 */
public record TrafficPlan(CheckReport check, List<ListenerPlan> listeners, List<ClusterPlan> clusters) {
  /**
   * Copies the lists.
   *
   * @param check the verdicts
   * @param listeners the listeners' plans
   * @param clusters the clusters' plans
   */
  public TrafficPlan {
    listeners = List.copyOf(listeners);
    clusters = List.copyOf(clusters);
  }

  /**
   * A cluster's plan.
   *
   * @param name the cluster's name
   * @return its plan, empty when the snapshot has no such Cluster
   */
  public Optional<ClusterPlan> cluster(String name) {
    return clusters.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /**
   * A listener's plan.
   *
   * @param name the listener's name
   * @return its plan, empty when the snapshot has no such Listener
   */
  public Optional<ListenerPlan> listener(String name) {
    return listeners.stream().filter(l -> l.name().equals(name)).findFirst();
  }

  /**
   * Where a request goes on an {@code xds:///} channel whose listener is named by its authority (as
   * {@code xds:///AUTHORITY} is), or through the snapshot's only listener.
   *
   * @param authority the channel's authority, {@code host[:port]}: it selects the virtual host
   * @param path the method's path, {@code /package.Service/Method}
   * @param headers the call's headers (a name given twice is not possible here: join values with
   *     {@code ","}, as a route's matcher sees them)
   * @return the route it matches and its clusters, or why it fails
   * @throws IllegalArgumentException if no listener is named by the authority and the snapshot has
   *     not exactly one, if the path is not {@code /service/method}, or a header cannot be sent
   */
  public RequestRoute request(String authority, String path, Map<String, String> headers) {
    Optional<ListenerPlan> named = listener(authority);
    if (named.isPresent() || listeners.size() != 1) {
      if (named.isEmpty()) {
        throw new IllegalArgumentException("no listener is named " + authority + " and the snapshot has "
            + (listeners.isEmpty() ? "none" : "several: " + listeners.stream().map(ListenerPlan::name).toList())
            + ": name the listener");
      }
      return request(authority, authority, path, headers);
    }
    return request(listeners.get(0).name(), authority, path, headers);
  }

  /**
   * Where a request goes on an {@code xds:///} channel of {@code listener}.
   *
   * @param listener the listener's name
   * @param authority the channel's authority, {@code host[:port]}: it selects the virtual host
   * @param path the method's path, {@code /package.Service/Method}
   * @param headers the call's headers
   * @return the route it matches and its clusters, or why it fails (a listener the snapshot lacks
   *     fails as not existing)
   * @throws IllegalArgumentException if the path is not {@code /service/method} or a header cannot
   *     be sent
   */
  public RequestRoute request(String listener, String authority, String path, Map<String, String> headers) {
    return RequestRouter.route(listener(listener), listener, authority, path, headers);
  }
}
