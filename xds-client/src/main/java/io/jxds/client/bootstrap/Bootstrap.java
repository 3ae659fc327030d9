package io.jxds.client.bootstrap;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.jxds.client.internal.DurationFormat;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A parsed gRPC xDS bootstrap: where the control plane is, who this client is, and jxds's own
 * knobs from the optional top-level {@code "jxds"} object.
 *
 * <p>Two bootstraps with equal {@link #servers()} and {@link #node()} share one client in
 * {@link io.jxds.client.XdsClientPool}.
 *
 * @param servers the {@code xds_servers}, in order; never empty (jxds talks to the first one, and to
 *     the next ones as fallbacks, gRFC A71)
 * @param node the {@code node} this client identifies itself as
 * @param resourceTimeout {@code jxds.resource_timeout}: how long a watched resource may stay
 *     unanswered before it is declared not to exist (default 15 s)
 * @param clientRetention {@code jxds.client_retention}: how long what nobody uses is kept (default
 *     5 min; zero means not at all): a pooled client nobody holds, with its stream and cache, and
 *     the cached value of a resource nobody watches (whose name leaves the wire at once)
 * @param certificateProviders {@code certificate_providers} (gRFC A29) by instance name: what a
 *     cluster's TLS context may refer to
 * @param clientDefaultListenerResourceNameTemplate {@code
 *     client_default_listener_resource_name_template} (gRFC A27, A47): the listener name of an
 *     {@code xds:///NAME} target, each {@code %s} replaced by {@code NAME}; {@code %s}
 *     by default
 * @param authorities {@code authorities} (gRFC A47) by name: the listener name template of an
 *     {@code xds://AUTHORITY/NAME} target, and the servers of every {@code xdstp://AUTHORITY/...}
 *     resource (the top-level {@code xds_servers} when an authority lists none)
 */
public record Bootstrap(
    List<ServerInfo> servers,
    Node node,
    Duration resourceTimeout,
    Duration clientRetention,
    Map<String, CertificateProviderSpec> certificateProviders,
    String clientDefaultListenerResourceNameTemplate,
    Map<String, Authority> authorities) {
  /** gRPC's INITIAL_RESOURCE_FETCH_TIMEOUT_SEC. */
  public static final Duration DEFAULT_RESOURCE_TIMEOUT = Duration.ofSeconds(15);
  /** Long enough to outlive a channel's idle/wake cycle under normal traffic. */
  public static final Duration DEFAULT_CLIENT_RETENTION = Duration.ofMinutes(5);
  /** gRFC A27: the listener is named by the target's name as is. */
  public static final String DEFAULT_LISTENER_TEMPLATE = "%s";

  /**
   * Creates a bootstrap, checking its components; the server list and the maps are copied.
   *
   * @param servers the servers, not empty
   * @param node the node
   * @param resourceTimeout positive
   * @param clientRetention zero or positive
   * @param certificateProviders the certificate providers by instance name, possibly empty
   * @param clientDefaultListenerResourceNameTemplate the listener name template of targets without
   *     an authority
   * @param authorities the authorities by name, possibly empty
   * @throws IllegalArgumentException if there is no server or a duration is out of range
   */
  public Bootstrap {
    servers = List.copyOf(servers);
    certificateProviders = Map.copyOf(certificateProviders);
    authorities = Map.copyOf(authorities);
    Objects.requireNonNull(clientDefaultListenerResourceNameTemplate, "clientDefaultListenerResourceNameTemplate");
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(resourceTimeout, "resourceTimeout");
    Objects.requireNonNull(clientRetention, "clientRetention");
    if (servers.isEmpty()) {
      throw new IllegalArgumentException("servers must not be empty");
    }
    if (resourceTimeout.isNegative() || resourceTimeout.isZero()) {
      throw new IllegalArgumentException(
          "resourceTimeout must be positive, got " + DurationFormat.format(resourceTimeout));
    }
    if (clientRetention.isNegative()) {
      throw new IllegalArgumentException(
          "clientRetention must not be negative, got " + DurationFormat.format(clientRetention));
    }
  }

  /**
   * The primary server: the first of {@code xds_servers}, which jxds connects to first.
   *
   * @return the first of {@code xds_servers}
   */
  public ServerInfo server() {
    return servers.get(0);
  }

  /**
   * A bootstrap without listener name templates or authorities.
   *
   * @param servers the servers
   * @param node the node
   * @param resourceTimeout the does-not-exist timer
   * @param clientRetention the retention
   * @param certificateProviders the certificate providers by instance name
   */
  public Bootstrap(List<ServerInfo> servers, Node node, Duration resourceTimeout, Duration clientRetention,
      Map<String, CertificateProviderSpec> certificateProviders) {
    this(servers, node, resourceTimeout, clientRetention, certificateProviders, DEFAULT_LISTENER_TEMPLATE, Map.of());
  }

  /**
   * A bootstrap without certificate providers.
   *
   * @param servers the servers
   * @param node the node
   * @param resourceTimeout the does-not-exist timer
   * @param clientRetention the retention
   */
  public Bootstrap(List<ServerInfo> servers, Node node, Duration resourceTimeout, Duration clientRetention) {
    this(servers, node, resourceTimeout, clientRetention, Map.of());
  }

  /**
   * What identifies a shared client: the servers, the node, the certificate providers (a client
   * validates clusters against them) and the listener names (a channel names its listener by the
   * bootstrap of its client), not the timing knobs.
   *
   * @param servers the servers
   * @param node the node
   * @param certificateProviders the certificate providers
   * @param clientDefaultListenerResourceNameTemplate the listener name template of targets without
   *     an authority
   * @param authorities the authorities
   */
  public record Key(List<ServerInfo> servers, Node node, Map<String, CertificateProviderSpec> certificateProviders,
      String clientDefaultListenerResourceNameTemplate, Map<String, Authority> authorities) {}

  /**
   * This bootstrap's sharing key.
   *
   * @return the key of the servers, the node, the certificate providers and the listener names
   */
  public Key key() {
    return new Key(servers, node, certificateProviders, clientDefaultListenerResourceNameTemplate, authorities);
  }
}
