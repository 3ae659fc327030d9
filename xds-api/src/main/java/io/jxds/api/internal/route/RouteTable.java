package io.jxds.api.internal.route;

import io.grpc.Metadata;
import io.jxds.api.model.route.HeaderMatcher;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.StringMatcher;
import io.jxds.api.model.route.VirtualHost;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * The routes of the virtual host a channel uses, built once per route configuration, matched per
 * call (gRFC A28): the first route that matches wins, later ones are never tried. Immutable, safe on
 * any thread.
 *
 * <pre>{@code
 * VirtualHost host = VirtualHostSelector.select(routes.virtualHosts(), authority); // null: fail calls
 * RouteTable table = RouteTable.of(host);
 * // per call:
 * RouteEntry entry = table.match(method.getFullMethodName(), headers, random);    // null: no route
 * String cluster = entry.chooseCluster(random);                                  // null: not forwarded
 * }</pre>
 */
public final class RouteTable {
  private static final HeaderReader[] NO_READERS = new HeaderReader[0];

  private final VirtualHost virtualHost;
  private final RouteEntry[] entries;
  private final HeaderReader[] readers; // one per distinct header name the routes match on
  private final int sharedPaths; // distinct path matchers when some routes share one, else 0

  private RouteTable(VirtualHost virtualHost) {
    this.virtualHost = virtualHost;
    List<Route> routes = virtualHost.routes();
    Map<String, Integer> headerIndex = new HashMap<>();
    List<HeaderReader> distinct = new ArrayList<>();
    for (Route r : routes) {
      for (HeaderMatcher h : r.match().headers()) {
        if (headerIndex.putIfAbsent(h.name(), distinct.size()) == null) {
          distinct.add(HeaderReader.of(h.name()));
        }
      }
    }
    this.readers = distinct.isEmpty() ? NO_READERS : distinct.toArray(new HeaderReader[0]);
    Map<StringMatcher, Integer> pathIndex = new HashMap<>();
    List<PathMatch> paths = new ArrayList<>();
    this.entries = new RouteEntry[routes.size()];
    for (int i = 0; i < entries.length; i++) {
      StringMatcher p = routes.get(i).match().path();
      Integer index = pathIndex.putIfAbsent(p, paths.size());
      if (index == null) {
        index = paths.size();
        paths.add(new PathMatch(p));
      }
      entries[i] = new RouteEntry(routes.get(i), paths.get(index), index, headerIndex);
    }
    this.sharedPaths = paths.size() < entries.length ? paths.size() : 0;
  }

  /**
   * Builds the table of a virtual host.
   *
   * @param virtualHost the channel's virtual host
   * @return the table
   */
  public static RouteTable of(VirtualHost virtualHost) {
    return new RouteTable(virtualHost);
  }

  /**
   * The virtual host this table routes for.
   *
   * @return the virtual host
   */
  public VirtualHost virtualHost() {
    return virtualHost;
  }

  /**
   * The first route that matches a call.
   *
   * @param fullMethodName the call's {@code package.Service/Method}
   * @param headers the call's headers
   * @param random where a route's runtime-fraction draw comes from
   * @return the route, or null when none matches (the call fails UNAVAILABLE, naming the listener
   *     and the virtual host)
   */
  public @Nullable RouteEntry match(String fullMethodName, Metadata headers, RandomGenerator random) {
    CallState call = readers.length == 0 && sharedPaths == 0 ? CallState.NONE
        : new CallState(headers, readers, sharedPaths);
    for (RouteEntry e : entries) {
      if (e.matches(fullMethodName, call, random)) {
        return e;
      }
    }
    return null;
  }

  /**
   * Every cluster the routes may send a call to, weight 0 included, in order of first mention: the
   * clusters a client watches for this virtual host.
   *
   * @return the cluster names, without duplicates
   */
  public List<String> clusterNames() {
    Set<String> names = new LinkedHashSet<>();
    for (Route r : virtualHost.routes()) {
      names.addAll(r.action().clusterNames());
    }
    return List.copyOf(names);
  }

  /**
   * The routes, in order.
   *
   * @return one entry per route
   */
  public List<RouteEntry> entries() {
    return List.of(entries);
  }
}
