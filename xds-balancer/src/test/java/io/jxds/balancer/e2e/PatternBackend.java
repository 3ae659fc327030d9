package io.jxds.balancer.e2e;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Deadline;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.jxds.testing.TestBackend;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A backend on 127.0.0.1 that serves {@link TestBackend#NAME_METHOD} (answering its name) and fails
 * a known pattern: the first {@code x-fail-first} attempts of the call {@code x-call-id} fail with
 * {@code x-fail-code} (default UNAVAILABLE); a call with {@code x-answer-after-ms} is answered that
 * late (scheduled, no thread held), so a tiny deadline expires however fast loopback is. It records each call's attempts, the
 * {@code grpc-previous-rpc-attempts} of each attempt and the deadline each attempt arrived with.
 */
final class PatternBackend implements AutoCloseable {
  static final Metadata.Key<String> CALL_ID = Metadata.Key.of("x-call-id", Metadata.ASCII_STRING_MARSHALLER);
  static final Metadata.Key<String> FAIL_FIRST = Metadata.Key.of("x-fail-first", Metadata.ASCII_STRING_MARSHALLER);
  static final Metadata.Key<String> FAIL_CODE = Metadata.Key.of("x-fail-code", Metadata.ASCII_STRING_MARSHALLER);
  static final Metadata.Key<String> ANSWER_AFTER_MS =
      Metadata.Key.of("x-answer-after-ms", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> PREVIOUS =
      Metadata.Key.of("grpc-previous-rpc-attempts", Metadata.ASCII_STRING_MARSHALLER);
  private static final Context.Key<Metadata> HEADERS = Context.key("headers");

  private final String name;
  private final Server server;
  private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
  private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
  private final List<String> previousAttempts = new CopyOnWriteArrayList<>();
  /** The time left (ns) on each attempt's deadline when it arrived; -1 for none. */
  private final List<Long> deadlines = new CopyOnWriteArrayList<>();

  PatternBackend(String name) throws IOException {
    this.name = name;
    ServerServiceDefinition service = ServerServiceDefinition.builder("jxds.testing.Backend")
        .addMethod(TestBackend.NAME_METHOD, ServerCalls.asyncUnaryCall((request, observer) -> {
          Metadata headers = HEADERS.get();
          Deadline deadline = Context.current().getDeadline();
          deadlines.add(deadline == null ? -1 : deadline.timeRemaining(TimeUnit.NANOSECONDS));
          String previous = headers.get(PREVIOUS);
          previousAttempts.add(previous == null ? "0" : previous);
          String callId = headers.get(CALL_ID);
          int attempt = callId == null ? 1
              : attempts.computeIfAbsent(callId, k -> new AtomicInteger()).incrementAndGet();
          String failFirst = headers.get(FAIL_FIRST);
          if (failFirst != null && attempt <= Integer.parseInt(failFirst)) {
            String code = headers.get(FAIL_CODE);
            observer.onError(Status.fromCode(code == null ? Status.Code.UNAVAILABLE : Status.Code.valueOf(code))
                .withDescription(name + " fails attempt " + attempt).asRuntimeException());
            return;
          }
          String answerAfter = headers.get(ANSWER_AFTER_MS);
          if (answerAfter == null) {
            answer(observer);
          } else {
            later.schedule(() -> answer(observer), Long.parseLong(answerAfter), TimeUnit.MILLISECONDS);
          }
        }))
        .build();
    this.server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(ServerInterceptors.intercept(service, new ServerInterceptor() {
          @Override
          public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
              ServerCallHandler<Q, R> next) {
            return Contexts.interceptCall(Context.current().withValue(HEADERS, headers), call, headers, next);
          }
        }))
        .build()
        .start();
  }

  private void answer(StreamObserver<byte[]> observer) {
    try {
      observer.onNext(name.getBytes(StandardCharsets.UTF_8));
      observer.onCompleted();
    } catch (StatusRuntimeException cancelled) {
      // the client's deadline expired first: nobody is waiting for the answer
    }
  }

  String name() {
    return name;
  }

  int port() {
    return server.getPort();
  }

  /** How many attempts of call {@code callId} arrived. */
  int attempts(String callId) {
    AtomicInteger n = attempts.get(callId);
    return n == null ? 0 : n.get();
  }

  List<String> previousAttempts() {
    return previousAttempts;
  }

  List<Long> deadlines() {
    return deadlines;
  }

  @Override
  public void close() throws InterruptedException {
    later.shutdownNow();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
