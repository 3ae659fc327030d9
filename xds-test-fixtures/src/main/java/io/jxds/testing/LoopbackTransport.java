package io.jxds.testing;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * A port on 127.0.0.1 through grpc-netty, plaintext or TLS (the server's credentials). Port 0
 * chooses a free port at the first start; a restart binds the same one again.
 */
final class LoopbackTransport implements Transport {
  private volatile int port; // the requested port until the first start binds it, then the bound one

  /** @throws IllegalArgumentException if {@code port} is not in [0, 65535] */
  LoopbackTransport(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
    this.port = port;
  }

  @Override
  public Server build(List<BindableService> services, ServerCredentials credentials) {
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(loopback(), port), credentials);
    services.forEach(builder::addService);
    return builder.build();
  }

  @Override
  public void started(Server server) {
    port = ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
  }

  @Override
  public String serverUri() {
    return "127.0.0.1:" + port();
  }

  @Override
  public ManagedChannel newClientChannel() {
    return ManagedChannelBuilder.forAddress("127.0.0.1", port()).usePlaintext().build();
  }

  @Override
  public int port() {
    int chosen = port;
    if (chosen == 0) {
      throw new IllegalStateException("port 0 is chosen at the first start()");
    }
    return chosen;
  }

  @Override
  public String toString() {
    return "127.0.0.1:" + port;
  }

  private static InetAddress loopback() {
    try {
      return InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    } catch (UnknownHostException e) {
      throw new AssertionError(e); // a literal address never needs a lookup
    }
  }
}
