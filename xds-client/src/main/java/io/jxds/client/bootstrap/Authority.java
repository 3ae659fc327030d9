package io.jxds.client.bootstrap;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of the bootstrap's {@code authorities} (gRFC A47): what an {@code xds://AUTHORITY/NAME}
 * target's listener is called, and which servers the authority names.
 *
 * <p>Every {@code xdstp://AUTHORITY/...} resource is fetched from the authority's servers (the
 * top-level {@code xds_servers} when it lists none); authorities that list the same servers share
 * their streams (see docs/configuration.md, "Federation and Traffic Director").
 *
 * @param clientListenerResourceNameTemplate {@code client_listener_resource_name_template}; it
 *     starts with {@code xdstp://AUTHORITY/}; empty for A47's default, {@code
 *     xdstp://AUTHORITY/envoy.config.listener.v3.Listener/%s}
 * @param servers {@code xds_servers}, as written; empty when absent, which A47 reads as the
 *     top-level {@code xds_servers}
 */
public record Authority(Optional<String> clientListenerResourceNameTemplate, List<ServerInfo> servers) {
  /**
   * Creates an authority entry; the server list is copied.
   *
   * @param clientListenerResourceNameTemplate the template, or empty for the default
   * @param servers the servers, possibly empty
   */
  public Authority {
    Objects.requireNonNull(clientListenerResourceNameTemplate, "clientListenerResourceNameTemplate");
    servers = List.copyOf(servers);
  }
}
