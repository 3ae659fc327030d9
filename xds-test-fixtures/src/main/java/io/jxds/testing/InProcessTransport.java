package io.jxds.testing;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.util.List;
import java.util.Objects;

/**
 * gRPC's in-process transport, under a name. Only a client built on {@link #newClientChannel()}
 * (or on {@link InProcessChannelBuilder#forName}) reaches it: grpc-java registers no name resolver
 * or channel provider for an {@code inprocess:} target, so a client that dials its bootstrap's
 * {@code server_uri} with {@code Grpc.newChannelBuilder} (jxds's pooled client, grpc-java's xDS)
 * cannot, and fails with {@code Invalid DNS name}.
 */
final class InProcessTransport implements Transport {
  private final String name;

  InProcessTransport(String name) {
    this.name = Objects.requireNonNull(name, "name");
  }

  @Override
  public Server build(List<BindableService> services, ServerCredentials credentials) {
    InProcessServerBuilder builder = InProcessServerBuilder.forName(name);
    services.forEach(builder::addService);
    return builder.build();
  }

  @Override
  public String serverUri() {
    return "inprocess:" + name;
  }

  @Override
  public ManagedChannel newClientChannel() {
    return InProcessChannelBuilder.forName(name).build();
  }

  @Override
  public int port() {
    throw new IllegalStateException("an in-process server has no port");
  }

  @Override
  public String toString() {
    return "in-process:" + name;
  }
}
