package io.jxds.balancer.internal.tls;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The state one {@code XdsClusterCredentials} object shares between the balancers of the channels
 * built with it and the key and trust managers gRPC calls during handshakes. A handshake knows
 * only its peer as the SSL engine has it: the host and port of the channel's authority (for
 * {@code xds-cluster:///NAME}, the cluster name). So each CDS balancer registers its cluster's TLS
 * under its channel's authority, and a handshake looks it up there.
 *
 * <p>Two registrations under one authority (the old and new cluster of a channel during a graceful
 * switch, or two channels to one cluster sharing the credentials object) are kept in order; the
 * latest serves new handshakes, and when it leaves the one before it serves again.
 */
public final class ClusterTlsRegistry {
  private final Map<String, Deque<Registration>> byPeer = new ConcurrentHashMap<>();

  /** Registers {@code tls} for handshakes to {@code authority}; the caller updates or closes it. */
  public Registration register(String authority, ClusterTls tls) {
    String peer = peerKey(authority);
    Registration r = new Registration(peer, tls);
    byPeer.computeIfAbsent(peer, k -> new ConcurrentLinkedDeque<>()).addLast(r);
    return r;
  }

  /** The TLS of the latest registration for the SSL engine's peer, if any. */
  public Optional<ClusterTls> lookup(String peerHost, int peerPort) {
    Deque<Registration> registrations = byPeer.get(peerKey(peerHost, peerPort));
    Registration latest = registrations == null ? null : registrations.peekLast();
    return latest == null ? Optional.empty() : Optional.of(latest.tls);
  }

  /** The authorities registered, for error messages. */
  public String registeredPeers() {
    return byPeer.keySet().toString();
  }

  // The same host and port the SSL engine is created with: the authority's, -1 without a port.
  static String peerKey(String authority) {
    try {
      URI uri = new URI(null, authority, null, null, null);
      if (uri.getHost() != null) {
        return peerKey(uri.getHost(), uri.getPort());
      }
    } catch (URISyntaxException e) {
      // not host[:port]: the engine gets the authority as its host
    }
    return peerKey(authority, -1);
  }

  static String peerKey(String host, int port) {
    return host + ":" + port;
  }

  /** One balancer's entry: updated in place when its cluster's TLS changes, closed when it goes. */
  public final class Registration {
    private final String peer;
    private volatile ClusterTls tls;

    private Registration(String peer, ClusterTls tls) {
      this.peer = peer;
      this.tls = tls;
    }

    /** New handshakes use {@code next}; established connections keep what they verified. */
    public void update(ClusterTls next) {
      tls = next;
    }

    /** Removes this entry. Idempotent. */
    public void close() {
      Deque<Registration> registrations = byPeer.get(peer);
      if (registrations != null) {
        registrations.remove(this);
        byPeer.computeIfPresent(peer, (k, d) -> d.isEmpty() ? null : d);
      }
    }
  }
}
