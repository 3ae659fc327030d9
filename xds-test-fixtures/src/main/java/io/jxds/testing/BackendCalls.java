package io.jxds.testing;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * RPCs to {@link TestBackend}s through any channel (a jxds {@code xds-cluster:///} channel, say),
 * and where they went: each answer names its backend. Every call has a 5 s deadline.
 *
 * <pre>{@code
 * Map<String, Integer> split = BackendCalls.calls(channel, 1000);   // {backend-1=750, backend-2=250}
 * BackendCalls.awaitCalls(channel, 20, Duration.ofSeconds(10), w -> w.getOrDefault("b", 0) == 20);
 * }</pre>
 */
public final class BackendCalls {
  /** The name a failed RPC is counted under. */
  public static final String FAILED = "failed";

  private static final long DEADLINE_SECONDS = 5;
  /** The status of the last RPC that failed, for failure messages; null before the first. */
  private static volatile @Nullable Status lastFailure;

  private BackendCalls() {}

  /**
   * One unary RPC ({@link TestBackend#NAME_METHOD}).
   *
   * @param channel the channel
   * @return the name of the backend that answered, or {@link #FAILED}
   */
  public static String call(Channel channel) {
    try {
      return new String(ClientCalls.blockingUnaryCall(channel, TestBackend.NAME_METHOD, options(), new byte[0]),
          StandardCharsets.UTF_8);
    } catch (StatusRuntimeException e) {
      lastFailure = e.getStatus();
      return FAILED;
    }
  }

  /**
   * {@code n} unary RPCs, one after another.
   *
   * @param channel the channel
   * @param n how many
   * @return how many each backend answered, failures under {@link #FAILED}, sorted by name
   */
  public static Map<String, Integer> calls(Channel channel, int n) {
    Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      counts.merge(call(channel), 1, Integer::sum);
    }
    return counts;
  }

  /**
   * One unary RPC, for its outcome.
   *
   * @param channel the channel
   * @return empty when it succeeded, else its status
   */
  public static Optional<Status> outcome(Channel channel) {
    try {
      ClientCalls.blockingUnaryCall(channel, TestBackend.NAME_METHOD, options(), new byte[0]);
      return Optional.empty();
    } catch (StatusRuntimeException e) {
      return Optional.of(e.getStatus());
    }
  }

  /**
   * One unary RPC expected to fail.
   *
   * @param channel the channel
   * @return its status
   * @throws AssertionError if it succeeded
   */
  public static Status failure(Channel channel) {
    return outcome(channel).orElseThrow(() -> new AssertionError("the RPC succeeded"));
  }

  /**
   * Sends windows of {@code window} RPCs until {@code done} holds for the counts of one window.
   *
   * @param channel the channel
   * @param window RPCs per window
   * @param timeout how long to try at most
   * @param done what the counts of a window ({@link #calls}) must satisfy
   * @return the counts of the window that satisfied it
   * @throws AssertionError naming the last window (and the last failure) when none did in time
   */
  public static Map<String, Integer> awaitCalls(
      Channel channel, int window, Duration timeout, Predicate<? super Map<String, Integer>> done) {
    // Poll.until asks the condition and the message on this thread: the last window is a plain map.
    Map<String, Integer> last = new TreeMap<>();
    Poll.until(() -> "RPCs to satisfy the condition; last window: " + last
            + (last.containsKey(FAILED) ? "; last failure: " + lastFailure : ""),
        timeout, () -> {
          last.clear();
          last.putAll(calls(channel, window));
          return done.test(last);
        });
    return last;
  }

  /**
   * The share of {@code name} in {@code split}.
   *
   * @param split RPC counts by backend name, as {@link #calls} returns them
   * @param name a backend's name, or {@link #FAILED}
   * @return its count as a fraction of all RPCs in {@code split}, in [0, 1]
   */
  public static double share(Map<String, Integer> split, String name) {
    int total = split.values().stream().mapToInt(Integer::intValue).sum();
    return total == 0 ? 0 : (double) split.getOrDefault(name, 0) / total;
  }

  /**
   * Opens a {@link TestBackend#HOLD_METHOD} stream, open until its backend releases it.
   *
   * @param channel the channel
   * @param closedWith receives the stream's status when it closes
   * @return the call, half-closed
   */
  public static ClientCall<byte[], byte[]> hold(Channel channel, List<Status> closedWith) {
    ClientCall<byte[], byte[]> call = channel.newCall(TestBackend.HOLD_METHOD, CallOptions.DEFAULT);
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

  private static CallOptions options() {
    return CallOptions.DEFAULT.withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
  }
}
