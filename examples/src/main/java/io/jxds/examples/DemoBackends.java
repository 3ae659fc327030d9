package io.jxds.examples;

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
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Real gRPC backend servers on 127.0.0.1, one per name. Each serves one hand-written unary method,
 * {@code grpc.health.v1.Health/Check}, answering SERVING, through a byte-array marshaller (no
 * generated code). The standard health method is used so that the same client also works against
 * the backends of an external control plane ({@code --xds-server}), which usually serve it. A
 * backend can be made {@linkplain Health#FLAKY flaky} or {@linkplain Health#SICK sick}: it keeps
 * accepting connections and fails some or all RPCs with UNAVAILABLE naming itself.
 */
final class DemoBackends implements AutoCloseable {
  /** {@code grpc.health.v1.Health/Check} with raw protobuf bytes: an empty request is valid. */
  static final MethodDescriptor<byte[], byte[]> HEALTH_CHECK = MethodDescriptor.<byte[], byte[]>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY)
      .setFullMethodName("grpc.health.v1.Health/Check")
      .setRequestMarshaller(Bytes.MARSHALLER)
      .setResponseMarshaller(Bytes.MARSHALLER)
      .build();

  /** {@code HealthCheckResponse{status: SERVING}}: field 1, varint 1. */
  private static final byte[] SERVING = {0x08, 0x01};

  /** How a backend answers. */
  enum Health {
    /** Every RPC answered. */
    GOOD,
    /** Every other RPC it receives fails with UNAVAILABLE ("NAME is flaky"). */
    FLAKY,
    /** Every RPC fails with UNAVAILABLE ("NAME is sick"), while connections are accepted as usual. */
    SICK
  }

  private final Map<String, Backend> backends = new LinkedHashMap<>();

  /** Starts a backend named {@code name} on a free 127.0.0.1 port. */
  synchronized void start(String name) {
    Backend backend = new Backend(name);
    backend.start(0);
    backends.put(name, backend);
  }

  /** {@code 127.0.0.1:PORT} of a backend (also while it is stopped). */
  synchronized String address(String name) {
    return "127.0.0.1:" + get(name).port;
  }

  /** The port of a backend. */
  synchronized int port(String name) {
    return get(name).port;
  }

  /** Sets how a backend answers from now on (it keeps its connections). */
  synchronized void setHealth(String name, Health health) {
    get(name).health = health;
  }

  /** Stops backends at once: open connections are cut, as when a process dies. */
  synchronized void stop(Collection<String> names) throws InterruptedException {
    for (String name : names) {
      get(name).stop();
    }
  }

  /** Starts stopped backends again on their old ports. */
  synchronized void restart(Collection<String> names) {
    for (String name : names) {
      Backend b = get(name);
      b.start(b.port);
    }
  }

  /** Stops every backend; an interrupt is kept for the caller. */
  @Override
  public synchronized void close() {
    try {
      for (Backend b : backends.values()) {
        b.stop();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Backend get(String name) {
    Backend b = backends.get(name);
    if (b == null) {
      throw new IllegalArgumentException("no backend " + name);
    }
    return b;
  }

  private static final class Backend {
    private final String name;
    private final AtomicLong received = new AtomicLong();
    private volatile Health health = Health.GOOD;
    private Server server;
    private int port;

    Backend(String name) {
      this.name = name;
    }

    void start(int atPort) {
      ServerServiceDefinition service = ServerServiceDefinition.builder("grpc.health.v1.Health")
          .addMethod(HEALTH_CHECK, ServerCalls.asyncUnaryCall((request, response) -> {
            long n = received.getAndIncrement();
            Health now = health;
            if (now == Health.SICK || (now == Health.FLAKY && n % 2 == 0)) {
              response.onError(Status.UNAVAILABLE.withDescription(name + " is " + now.name().toLowerCase(Locale.ROOT))
                  .asRuntimeException());
              return;
            }
            response.onNext(SERVING);
            response.onCompleted();
          }))
          .build();
      try {
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", atPort))
            .addService(service)
            .build()
            .start();
      } catch (IOException e) {
        throw new UncheckedIOException("backend could not listen on 127.0.0.1:" + atPort, e);
      }
      port = server.getPort();
    }

    void stop() throws InterruptedException {
      if (server != null) {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server = null;
      }
    }
  }

  /** The identity marshaller for raw message bytes. */
  static final class Bytes {
    static final MethodDescriptor.Marshaller<byte[]> MARSHALLER = new MethodDescriptor.Marshaller<>() {
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

    private Bytes() {}
  }
}
