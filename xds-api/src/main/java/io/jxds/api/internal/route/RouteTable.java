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
  /** A header value read as absent, remembered so that it is not read again. */
  private static final Object ABSENT = new Object();
  /** Path matchers with an index below this have their result remembered for the call. */
  private static final int REMEMBERED_PATHS = Long.SIZE;

  private final VirtualHost virtualHost;
  private final RouteEntry[] entries;
  /** The routes a call can reach: up to the first that matches every call, included. */
  private final int reachable;
  /** The route every call takes, when the first route matches every call; else null. */
  private final @Nullable RouteEntry always;
  /** By route index: the run of exact header values that starts there, or null. */
  private final @Nullable ExactRun[] runs;
  private final HeaderReader[] readers; // one per distinct header name the routes match on

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
    int firstUnconditional = entries.length;
    for (int i = 0; i < entries.length; i++) {
      StringMatcher p = routes.get(i).match().path();
      Integer index = pathIndex.putIfAbsent(p, paths.size());
      if (index == null) {
        index = paths.size();
        paths.add(new PathMatch(p));
      }
      entries[i] = new RouteEntry(routes.get(i), i, paths.get(index), index, headerIndex);
      if (firstUnconditional == entries.length && entries[i].unconditional()) {
        firstUnconditional = i;
      }
    }
    this.reachable = Math.min(entries.length, firstUnconditional + 1);
    this.always = entries.length > 0 && firstUnconditional == 0 ? entries[0] : null;
    this.runs = new ExactRun[reachable];
    for (int i = 0; i < reachable; ) {
      ExactRun run = ExactRun.startingAt(entries, i);
      if (run == null || run.end() > reachable) {
        i++;
      } else {
        runs[i] = run;
        i = run.end();
      }
    }
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
   * The route every call takes, when the first route matches every path with no header matcher and
   * no runtime fraction that can fail: a caller may then decide once what {@link #match} would
   * answer each call.
   *
   * @return that route, or null when calls may take different routes
   */
  public @Nullable RouteEntry routeForEveryCall() {
    return always;
  }

  /**
   * The first route that matches a call. Reads each header some route names at most once, when a
   * route first needs it, runs each distinct path matcher at most once, and allocates nothing
   * unless a call is tried against routes on two or more header names.
   *
   * @param fullMethodName the call's {@code package.Service/Method}
   * @param headers the call's headers
   * @param random where a route's runtime-fraction draw comes from
   * @return the route, or null when none matches (the call fails UNAVAILABLE, naming the listener
   *     and the virtual host)
   */
  public @Nullable RouteEntry match(String fullMethodName, Metadata headers, RandomGenerator random) {
    RouteEntry first = always;
    if (first != null) {
      return first;
    }
    long pathsKnown = 0; // bit i: path matcher i has run for this call
    long pathsMatched = 0; // bit i: and matched
    Object value0 = null; // header 0's value once read (ABSENT when the call lacks it)
    Object[] values = null; // the other headers' values, once one is needed
    RouteEntry[] routes = entries;
    int i = 0;
    next:
    while (i < reachable) {
      RouteEntry e = routes[i];
      int p = e.pathIndex;
      boolean pathMatches;
      if (p < REMEMBERED_PATHS) {
        long bit = 1L << p;
        if ((pathsKnown & bit) == 0) {
          pathsKnown |= bit;
          if (e.path.matches(fullMethodName)) {
            pathsMatched |= bit;
          }
        }
        pathMatches = (pathsMatched & bit) != 0;
      } else {
        pathMatches = e.path.matches(fullMethodName);
      }
      ExactRun run = runs[i];
      if (!pathMatches) {
        i = run != null ? run.end() : i + 1;
        continue;
      }
      HeaderMatcher[] matchers = e.headers;
      for (int h = 0; h < matchers.length; h++) {
        int r = e.readerIndex[h];
        Object v;
        if (r == 0) {
          if (value0 == null) {
            value0 = read(0, headers);
          }
          v = value0;
        } else {
          if (values == null) {
            values = new Object[readers.length];
          }
          v = values[r];
          if (v == null) {
            v = read(r, headers);
            values[r] = v;
          }
        }
        String value = v == ABSENT ? null : (String) v;
        if (run != null) {
          RouteEntry chosen = run.match(value);
          if (chosen != null) {
            return chosen;
          }
          i = run.end();
          continue next;
        }
        if (!matchers[h].matches(value)) {
          i++;
          continue next;
        }
      }
      if (e.fractionMatches(random)) {
        return e;
      }
      i++;
    }
    return null;
  }

  private Object read(int reader, Metadata headers) {
    String value = readers[reader].read(headers);
    return value == null ? ABSENT : value;
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
