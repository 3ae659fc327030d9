package io.jxds.testing;

import io.grpc.BindableService;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A unix domain socket (as istio-agent serves ADS on {@code /etc/istio/proxy/XDS}), plaintext,
 * through grpc-netty's epoll transport (Linux). Clients dial {@code unix:///ABSOLUTE_PATH}.
 */
final class UnixSocketTransport implements Transport {
  private static final long STOP_TIMEOUT_SECONDS = 5;

  private final Path path;
  private volatile @Nullable EventLoopGroup group; // while a server runs, else null

  /** @throws UnsupportedOperationException unless {@link #supported()} */
  UnixSocketTransport(Path path) {
    Objects.requireNonNull(path, "path");
    if (!supported()) {
      throw new UnsupportedOperationException(
          "unix domain sockets need grpc-netty's epoll transport (Linux): " + Epoll.unavailabilityCause());
    }
    this.path = path.toAbsolutePath();
  }

  /** Whether this platform has grpc-netty-shaded's epoll transport, which unix sockets need (Linux). */
  static boolean supported() {
    return Epoll.isAvailable();
  }

  // grpc-netty's own unix-socket client uses epoll; the server side needs its channel type and an
  // event loop of the same kind, with daemon threads so a forgotten server cannot hold the JVM.
  @Override
  public Server build(List<BindableService> services, ServerCredentials credentials) {
    EventLoopGroup newGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("fake-ads-unix", true),
        EpollIoHandler.newFactory());
    group = newGroup;
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(new DomainSocketAddress(path.toString()), InsecureServerCredentials.create())
            .channelType(EpollServerDomainSocketChannel.class)
            .bossEventLoopGroup(newGroup)
            .workerEventLoopGroup(newGroup);
    services.forEach(builder::addService);
    return builder.build();
  }

  @Override
  public void stopped() throws InterruptedException {
    EventLoopGroup old = group;
    group = null;
    if (old != null) {
      old.shutdownGracefully(0, STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS).await(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
  }

  @Override
  public String serverUri() {
    return "unix://" + path;
  }

  @Override
  public ManagedChannel newClientChannel() {
    // grpc-netty's unix-socket resolver and channel provider take the unix: target.
    return Grpc.newChannelBuilder(serverUri(), InsecureChannelCredentials.create()).build();
  }

  @Override
  public int port() {
    throw new IllegalStateException("a unix-socket server has no port");
  }

  @Override
  public String toString() {
    return "unix:" + path;
  }
}
