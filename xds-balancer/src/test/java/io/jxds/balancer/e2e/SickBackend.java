package io.jxds.balancer.e2e;

import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import io.jxds.testing.TestBackend;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A backend on 127.0.0.1 that accepts connections and fails every RPC with INTERNAL "sick" while
 * {@link #sick} is set (what outlier detection exists for); healed, it answers "healed".
 */
final class SickBackend implements AutoCloseable {
  /** Whether RPCs fail; starts sick. */
  final AtomicBoolean sick = new AtomicBoolean(true);
  /** RPCs that reached it. */
  final AtomicInteger calls = new AtomicInteger();
  private final Server server;

  SickBackend() throws IOException {
    ServerServiceDefinition service = ServerServiceDefinition.builder("jxds.testing.Backend")
        .addMethod(TestBackend.NAME_METHOD, ServerCalls.asyncUnaryCall((request, observer) -> {
          calls.incrementAndGet();
          if (sick.get()) {
            observer.onError(Status.INTERNAL.withDescription("sick").asRuntimeException());
          } else {
            observer.onNext("healed".getBytes(StandardCharsets.UTF_8));
            observer.onCompleted();
          }
        }))
        .addMethod(TestBackend.HOLD_METHOD, ServerCalls.asyncServerStreamingCall((request, observer) ->
            observer.onError(Status.INTERNAL.asRuntimeException())))
        .build();
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(service).build().start();
  }

  int port() {
    return server.getPort();
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
