package io.jxds.balancer.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Attributes;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServerTransportFilter;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * Real gRPC backends on 127.0.0.1 for end-to-end tests. Each answers the unary method
 * {@link #WHO} with its own name, and holds the server-streaming method {@link #HOLD} open until
 * the test releases it. Per backend it counts connections (transports) opened and closed.
 */
public final class Backends implements AutoCloseable {
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

  /** Unary: answers the backend's name. */
  public static final MethodDescriptor<byte[], byte[]> WHO = MethodDescriptor.<byte[], byte[]>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY)
      .setFullMethodName("jxds.test.Who/Name")
      .setRequestMarshaller(BYTES)
      .setResponseMarshaller(BYTES)
      .build();

  /** Server streaming: stays open until {@link Backend#releaseHeld(int)}. */
  public static final MethodDescriptor<byte[], byte[]> HOLD = MethodDescriptor.<byte[], byte[]>newBuilder()
      .setType(MethodDescriptor.MethodType.SERVER_STREAMING)
      .setFullMethodName("jxds.test.Who/Hold")
      .setRequestMarshaller(BYTES)
      .setResponseMarshaller(BYTES)
      .build();

  /** The name failed RPCs are counted under in {@link #calls}. */
  public static final String FAILED = "failed";

  private final Map<String, Backend> backends = new ConcurrentHashMap<>();
  /** The status of the last RPC that failed, for failure messages. */
  private static volatile Status lastFailure;

  /** One backend server. */
  public static final class Backend {
    private final String name;
    private volatile Server server;
    private volatile int port;
    final AtomicInteger connectionsOpened = new AtomicInteger();
    final AtomicInteger connectionsClosed = new AtomicInteger();
    private final List<StreamObserver<byte[]>> held = new CopyOnWriteArrayList<>();
    private final ServerCredentials credentials;
    /** The client certificate's subject of each TLS connection, in the order they were made. */
    private final List<String> clientSubjects = new CopyOnWriteArrayList<>();

    Backend(String name, ServerCredentials credentials) {
      this.name = name;
      this.credentials = credentials;
    }

    /** The subject of the client certificate of each TLS connection, oldest first ("none" without one). */
    public List<String> clientSubjects() {
      return List.copyOf(clientSubjects);
    }

    public String name() {
      return name;
    }

    public InetSocketAddress address() {
      return new InetSocketAddress("127.0.0.1", port);
    }

    public int port() {
      return port;
    }

    public int connectionsOpened() {
      return connectionsOpened.get();
    }

    public int connectionsClosed() {
      return connectionsClosed.get();
    }

    /** Streams of {@link #HOLD} open now. */
    public int heldStreams() {
      return held.size();
    }

    /** Completes {@code k} held streams. */
    public void releaseHeld(int k) {
      for (int i = 0; i < k && !held.isEmpty(); i++) {
        StreamObserver<byte[]> o = held.remove(0);
        o.onCompleted();
      }
    }

    void start(int atPort) throws IOException {
      ServerServiceDefinition service = ServerServiceDefinition.builder("jxds.test.Who")
          .addMethod(WHO, ServerCalls.asyncUnaryCall((request, observer) -> {
            observer.onNext(name.getBytes(StandardCharsets.UTF_8));
            observer.onCompleted();
          }))
          .addMethod(HOLD, ServerCalls.asyncServerStreamingCall((request, observer) -> held.add(observer)))
          .build();
      server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", atPort), credentials)
          .addService(service)
          .addTransportFilter(new ServerTransportFilter() {
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
          })
          .build()
          .start();
      port = server.getPort();
    }

    void stop() throws InterruptedException {
      Server s = server;
      if (s != null) {
        held.clear();
        s.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server = null;
      }
    }
  }

  private static String clientSubject(SSLSession ssl) {
    try {
      return ((X509Certificate) ssl.getPeerCertificates()[0]).getSubjectX500Principal().getName();
    } catch (SSLPeerUnverifiedException e) {
      return "none";
    }
  }

  /** Starts a backend named {@code name} on a free loopback port. */
  public Backend start(String name) throws IOException {
    return start(name, InsecureServerCredentials.create());
  }

  /** Starts a backend named {@code name} on a free loopback port, serving with {@code credentials}. */
  public Backend start(String name, ServerCredentials credentials) throws IOException {
    Backend b = new Backend(name, credentials);
    b.start(0);
    backends.put(name, b);
    return b;
  }

  /** The backend named {@code name}. */
  public Backend get(String name) {
    Backend b = backends.get(name);
    if (b == null) {
      throw new IllegalArgumentException("no backend " + name);
    }
    return b;
  }

  /**
   * Stops backends, all at once (each is shut down before any is awaited); their ports stay
   * reserved for {@link #restart}.
   */
  public void stop(String... names) throws InterruptedException {
    List<Server> stopping = new ArrayList<>();
    for (String name : names) {
      Backend b = get(name);
      b.held.clear();
      Server s = b.server;
      b.server = null;
      if (s != null) {
        stopping.add(s.shutdownNow());
      }
    }
    for (Server s : stopping) {
      s.awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** Starts a stopped backend again on the same port. */
  public void restart(String name) throws IOException {
    Backend b = get(name);
    b.start(b.port());
  }

  /**
   * {@code n} sequential unary RPCs; counts answers per backend name and failures under
   * {@link #FAILED}, sorted by name.
   */
  public static Map<String, Integer> calls(Channel channel, int n) {
    Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      counts.merge(call(channel), 1, Integer::sum);
    }
    return counts;
  }

  /** One unary RPC: the backend's name, or {@link #FAILED}. */
  public static String call(Channel channel) {
    try {
      byte[] reply = ClientCalls.blockingUnaryCall(
          channel, WHO, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS), new byte[0]);
      return new String(reply, StandardCharsets.UTF_8);
    } catch (StatusRuntimeException e) {
      lastFailure = e.getStatus();
      return FAILED;
    }
  }

  /** One unary RPC: empty when it succeeded, else its status. */
  public static java.util.Optional<Status> outcome(Channel channel) {
    try {
      ClientCalls.blockingUnaryCall(channel, WHO, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS),
          new byte[0]);
      return java.util.Optional.empty();
    } catch (StatusRuntimeException e) {
      return java.util.Optional.of(e.getStatus());
    }
  }

  /** One unary RPC expected to fail: its status. */
  public static Status failure(Channel channel) {
    return outcome(channel).orElseThrow(() -> new AssertionError("the RPC succeeded"));
  }

  /** Asserts that {@code name} took {@code expectedPercent} of the RPCs in {@code split}, within 2 points. */
  public static void assertShare(Map<String, Integer> split, String name, double expectedPercent) {
    int total = split.values().stream().mapToInt(Integer::intValue).sum();
    double share = 100.0 * split.getOrDefault(name, 0) / total;
    assertThat(share).as("share of %s in %s", name, split).isBetween(expectedPercent - 2, expectedPercent + 2);
  }

  /** Calls until {@code done} holds for the counts of the last {@code window} RPCs, or fails. */
  public static Map<String, Integer> awaitCalls(
      Channel channel, int window, long timeoutMillis, java.util.function.Predicate<Map<String, Integer>> done)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    Map<String, Integer> last = Map.of();
    while (System.nanoTime() < deadline) {
      last = calls(channel, window);
      if (done.test(last)) {
        return last;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("condition not reached in " + timeoutMillis + " ms; last window: " + last
        + (last.containsKey(FAILED) ? "; last failure: " + lastFailure : ""));
  }

  /** Opens a {@link #HOLD} stream; the returned call is open until the server completes it. */
  public static ClientCall<byte[], byte[]> hold(Channel channel, List<Status> closedWith) {
    ClientCall<byte[], byte[]> call = channel.newCall(HOLD, CallOptions.DEFAULT);
    call.start(new ClientCall.Listener<>() {
      @Override
      public void onClose(Status status, Metadata trailers) {
        closedWith.add(status);
      }
    }, new Metadata());
    call.sendMessage(new byte[0]);
    call.halfClose();
    call.request(Integer.MAX_VALUE);
    return call;
  }

  /** Names of every backend, for diagnostics. */
  public List<String> names() {
    return new ArrayList<>(backends.keySet());
  }

  @Override
  public void close() throws InterruptedException {
    for (Backend b : backends.values()) {
      b.stop();
    }
  }
}
