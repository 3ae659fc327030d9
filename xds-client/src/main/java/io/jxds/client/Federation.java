package io.jxds.client;

import io.jxds.client.bootstrap.Authority;
import io.jxds.client.bootstrap.Bootstrap;
import io.jxds.client.bootstrap.ServerInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Which client serves an {@code xdstp:} name (gRFC A47, ARCHITECTURE.md, "The xDS client"): the
 * bootstrap's {@code authorities} by name, each served by the client of its {@code xds_servers}.
 * An authority without servers, or with the top-level ones, is served by the top-level client;
 * authorities that list the same servers share one client, so a server has one stream however
 * many authorities name it, and each distinct server list has its own fallback chain (gRFC A71)
 * and its servers' own features. Looking a name's client up is one map lookup.
 */
final class Federation {
  private final Map<String, DefaultXdsClient> byAuthority;
  private final List<DefaultXdsClient> others;

  private Federation(Map<String, DefaultXdsClient> byAuthority, List<DefaultXdsClient> others) {
    this.byAuthority = byAuthority;
    this.others = List.copyOf(others);
  }

  /**
   * The federation of {@code bootstrap}'s authorities around {@code top}, building one client per
   * distinct server list other than the top-level one with {@code build}.
   */
  static Federation of(
      Bootstrap bootstrap, DefaultXdsClient top, Function<List<ServerInfo>, DefaultXdsClient> build) {
    Map<String, DefaultXdsClient> byAuthority = new HashMap<>();
    Map<List<ServerInfo>, DefaultXdsClient> byServers = new LinkedHashMap<>();
    byServers.put(bootstrap.servers(), top);
    List<DefaultXdsClient> others = new ArrayList<>();
    for (Map.Entry<String, Authority> e : bootstrap.authorities().entrySet()) {
      List<ServerInfo> servers = e.getValue().servers().isEmpty() ? bootstrap.servers() : e.getValue().servers();
      DefaultXdsClient client = byServers.computeIfAbsent(servers, s -> {
        DefaultXdsClient c = build.apply(s);
        others.add(c);
        return c;
      });
      byAuthority.put(e.getKey(), client);
    }
    return new Federation(byAuthority, others);
  }

  /** The client serving {@code authority}, or null when the bootstrap does not name it. */
  @Nullable DefaultXdsClient clientOf(String authority) {
    return byAuthority.get(authority);
  }

  /** The clients of the authorities with servers of their own. */
  List<DefaultXdsClient> others() {
    return others;
  }
}
