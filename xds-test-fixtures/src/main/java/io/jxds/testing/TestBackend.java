package io.jxds.testing;

import io.grpc.Attributes;
import io.grpc.Grpc;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServerTransportFilter;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.jspecify.annotations.Nullable;

/**
 * A real gRPC backend on 127.0.0.1, for tests that route RPCs: it answers the unary {@link
 * #NAME_METHOD} with its own name and counts what it served, holds each {@link #HOLD_METHOD}
 * stream open until the test releases it, and counts its connections (and, over TLS, who made
 * them). Start it through {@link TestBackends} (or {@link XdsTestBed#backends()}); put {@link
 * #ip()} and {@link #port()} in the endpoints you serve; call it with {@link BackendCalls}.
 * Thread-safe.
 */
public final class TestBackend {
  private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
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

  /** Unary, {@code jxds.testing.Backend/Name}: the answer is the backend's name, in UTF-8. */
  public static final MethodDescriptor<byte[], byte[]> NAME_METHOD = method("Name", MethodDescriptor.MethodType.UNARY);
  /** Server streaming, {@code jxds.testing.Backend/Hold}: stays open until {@link #releaseHeld}. */
  public static final MethodDescriptor<byte[], byte[]> HOLD_METHOD =
      method("Hold", MethodDescriptor.MethodType.SERVER_STREAMING);

  private final String name;
  private final ServerCredentials credentials;
  private final AtomicInteger served = new AtomicInteger();
  private final AtomicInteger connectionsOpened = new AtomicInteger();
  private final AtomicInteger connectionsClosed = new AtomicInteger();
  private final List<StreamObserver<byte[]>> held = new CopyOnWriteArrayList<>();
  private final List<String> clientSubjects = new CopyOnWriteArrayList<>();
  private volatile @Nullable Server server; // null while stopped
  private volatile int port;

  TestBackend(String name, ServerCredentials credentials) {
    this.name = name;
    this.credentials = credentials;
  }

  /**
   * The name it answers.
   *
   * @return the name given at its start
   */
  public String name() {
    return name;
  }

  /**
   * Its IP address, for an endpoint's {@code socket_address}.
   *
   * @return {@code "127.0.0.1"}
   */
  public String ip() {
    return "127.0.0.1";
  }

  /**
   * Its port, the same across a restart.
   *
   * @return the port
   */
  public int port() {
    return port;
  }

  /**
   * Its address.
   *
   * @return 127.0.0.1 and its port
   */
  public InetSocketAddress address() {
    return new InetSocketAddress(ip(), port);
  }

  /**
   * How many {@link #NAME_METHOD} calls it has answered.
   *
   * @return the count, since its first start
   */
  public int served() {
    return served.get();
  }

  /**
   * How many connections (transports) clients opened to it.
   *
   * @return the count, since its first start
   */
  public int connectionsOpened() {
    return connectionsOpened.get();
  }

  /**
   * How many of its connections have closed.
   *
   * @return the count, since its first start
   */
  public int connectionsClosed() {
    return connectionsClosed.get();
  }

  /**
   * The subject of the client certificate of each TLS connection, oldest first.
   *
   * @return the subjects ({@code "none"} for a connection without one)
   */
  public List<String> clientSubjects() {
    return List.copyOf(clientSubjects);
  }

  /**
   * How many {@link #HOLD_METHOD} streams it holds open now.
   *
   * @return the number of held streams
   */
  public int heldStreams() {
    return held.size();
  }

  /**
   * Completes up to {@code k} held streams, oldest first.
   *
   * @param k how many
   */
  public void releaseHeld(int k) {
    for (int i = 0; i < k && !held.isEmpty(); i++) {
      held.remove(0).onCompleted();
    }
  }

  @Override
  public String toString() {
    return name + "@127.0.0.1:" + port;
  }

  /** Starts serving on {@code atPort} (0: a free one). */
  void start(int atPort) throws IOException {
    ServerServiceDefinition service = ServerServiceDefinition.builder("jxds.testing.Backend")
        .addMethod(NAME_METHOD, ServerCalls.asyncUnaryCall((request, observer) -> {
          served.incrementAndGet();
          observer.onNext(name.getBytes(StandardCharsets.UTF_8));
          observer.onCompleted();
        }))
        .addMethod(HOLD_METHOD, ServerCalls.asyncServerStreamingCall((request, observer) -> held.add(observer)))
        .build();
    Server started = NettyServerBuilder.forAddress(new InetSocketAddress(ip(), atPort), credentials)
        .addService(service)
        .addTransportFilter(new ConnectionCounter())
        .build()
        .start();
    server = started;
    port = started.getPort();
  }

  /** Shuts down now, cutting its connections, without waiting; returns the server, or null if stopped. */
  @Nullable Server shutdownNow() {
    Server s = server;
    server = null;
    held.clear();
    return s == null ? null : s.shutdownNow();
  }

  /** Shuts down now and waits for the server to terminate. */
  void stop() throws InterruptedException {
    Server s = shutdownNow();
    if (s != null) {
      s.awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  private static MethodDescriptor<byte[], byte[]> method(String name, MethodDescriptor.MethodType type) {
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(type)
        .setFullMethodName("jxds.testing.Backend/" + name)
        .setRequestMarshaller(BYTES)
        .setResponseMarshaller(BYTES)
        .build();
  }

  /** Counts connections, and notes each TLS client's certificate subject. */
  private final class ConnectionCounter extends ServerTransportFilter {
    @Override
    public Attributes transportReady(Attributes transportAttrs) {
      SSLSession ssl = transportAttrs.get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
      if (ssl != null) {
        clientSubjects.add(clientSubject(ssl));
      }
      connectionsOpened.incrementAndGet();
      return transportAttrs;
    }

    @Override
    public void transportTerminated(Attributes transportAttrs) {
      connectionsClosed.incrementAndGet();
    }
  }

  private static String clientSubject(SSLSession ssl) {
    try {
      return ((X509Certificate) ssl.getPeerCertificates()[0]).getSubjectX500Principal().getName();
    } catch (SSLPeerUnverifiedException e) {
      return "none";
    }
  }
}
