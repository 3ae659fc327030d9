package io.jxds.testing;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import java.util.List;

/**
 * Where a {@link FakeAdsServer} listens and how a client reaches it: in process, a loopback port
 * (plaintext or TLS) or a unix domain socket. The resources, protocol and faults are the same on
 * each.
 */
sealed interface Transport permits InProcessTransport, LoopbackTransport, UnixSocketTransport {
  /**
   * Builds a server with {@code services}, not started.
   *
   * @param credentials the server's credentials (the loopback transport only; the others are
   *     plaintext)
   */
  Server build(List<BindableService> services, ServerCredentials credentials);

  /** Notes that the server built last is listening. */
  default void started(Server server) {}

  /**
   * Releases what {@link #build} made beyond the server, once the server has terminated or failed
   * to start.
   */
  default void stopped() throws InterruptedException {}

  /** The address a client dials, as a bootstrap's {@code server_uri} holds it. */
  String serverUri();

  /** A new plaintext channel to the server; the caller shuts it down. */
  ManagedChannel newClientChannel();

  /**
   * The loopback port.
   *
   * @throws IllegalStateException if this transport has none, or has not chosen it yet
   */
  int port();
}
