package io.jxds.soak;

import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Real gRPC backends on 127.0.0.1, by index. Each answers the unary method {@link #WHO} with its
 * index as decimal text (byte-array marshaller, no generated code). A killed backend is cut at once
 * ({@code shutdownNow}), as a crashed process; a restarted one listens on its old port again. A
 * sick backend accepts connections and fails every RPC with UNAVAILABLE ({@link #sickText}).
 */
final class SoakBackends implements AutoCloseable {
  static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  static final MethodDescriptor<byte[], byte[]> WHO = MethodDescriptor.<byte[], byte[]>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY)
      .setFullMethodName("jxds.soak.Backend/Who")
      .setRequestMarshaller(BYTES)
      .setResponseMarshaller(BYTES)
      .build();

  private final Server[] servers;
  private final int[] ports;
  /** 1 while a backend is sick: it accepts connections and fails every RPC. */
  private final AtomicIntegerArray sick;

  SoakBackends(int count) {
    servers = new Server[count];
    ports = new int[count];
    sick = new AtomicIntegerArray(count);
    for (int i = 0; i < count; i++) {
      start(i);
    }
  }

  int port(int backend) {
    return ports[backend];
  }

  /** What a sick backend's RPCs fail with (UNAVAILABLE). */
  static String sickText(int backend) {
    return "b" + backend + " is sick";
  }

  /** A sick backend keeps its connections and fails every RPC with UNAVAILABLE; healed, it answers again. */
  void setSick(int backend, boolean isSick) {
    sick.set(backend, isSick ? 1 : 0);
  }

  synchronized void kill(int backend) throws InterruptedException {
    Server s = servers[backend];
    servers[backend] = null;
    if (s != null) {
      s.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  synchronized void restart(int backend) {
    if (servers[backend] == null) {
      start(backend);
    }
  }

  private void start(int backend) {
    byte[] id = Integer.toString(backend).getBytes(StandardCharsets.US_ASCII);
    ServerServiceDefinition service = ServerServiceDefinition.builder("jxds.soak.Backend")
        .addMethod(WHO, ServerCalls.asyncUnaryCall((request, response) -> {
          if (sick.get(backend) == 1) {
            response.onError(Status.UNAVAILABLE.withDescription(sickText(backend)).asRuntimeException());
            return;
          }
          response.onNext(id);
          response.onCompleted();
        }))
        .build();
    servers[backend] = Ports.bind(ports[backend], port -> NettyServerBuilder
        .forAddress(new InetSocketAddress("127.0.0.1", port))
        .directExecutor()
        .addService(service)
        .build());
    ports[backend] = servers[backend].getPort();
  }

  @Override
  public synchronized void close() {
    try {
      for (int i = 0; i < servers.length; i++) {
        kill(i);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
