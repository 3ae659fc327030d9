package io.jxds.testing;

import com.google.protobuf.Message;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Status;
import java.time.Duration;

/**
 * The faults a {@link FakeAdsServer} injects: control planes that fail their streams, stop
 * answering, answer late, or send what no good control plane sends. Get it from {@link
 * FakeAdsServer#faults()}:
 *
 * <pre>{@code
 * ads.faults().holdResponses();      // the client's requests are recorded, never answered
 * ads.setClusters(XdsResources.cluster("payments").build());
 * ads.faults().releaseResponses();   // now they are
 * ads.faults().breakStreams(Status.UNAVAILABLE);
 * }</pre>
 *
 * <p>A control-plane restart is {@link FakeAdsServer#stop()} then {@link FakeAdsServer#start()}.
 * Thread-safe.
 */
public final class FaultInjector {
  private final Monitor monitor;
  private final OpenStreams streams;
  private final ResponseSender sender;

  FaultInjector(Monitor monitor, OpenStreams streams, ResponseSender sender) {
    this.monitor = monitor;
    this.streams = streams;
    this.sender = sender;
  }

  /**
   * Closes every open stream with {@code status} (as a control plane that fails or recycles its
   * streams). The server keeps running; clients may reconnect.
   *
   * @param status the status the streams end with
   */
  public void breakStreams(Status status) {
    monitor.run(() -> streams.closeAll().forEach(stream -> sender.submit(stream, () -> stream.fail(status))));
  }

  /**
   * From now on, responses (pushes and answers to requests) are queued instead of sent, as a
   * control plane that stops answering while keeping its streams open. Requests are still
   * received, classified and recorded.
   */
  public void holdResponses() {
    sender.hold();
  }

  /** Sends the held responses in order (to streams still open) and stops holding. */
  public void releaseResponses() {
    sender.release();
  }

  /**
   * Delays every later response by {@code delay} (zero to stop delaying). Responses already
   * scheduled keep their delay.
   *
   * @param delay zero or positive
   * @throws IllegalArgumentException if {@code delay} is negative
   */
  public void delayResponses(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("negative delay: " + delay);
    }
    sender.delay(delay);
  }

  /**
   * Sends {@code response} unchanged, at once (neither held nor delayed), on every open
   * state-of-the-world stream, for malformed or hostile input. Its nonce, when not empty, becomes
   * the last nonce sent for its type on each stream, so the client's answer to it is classified as
   * an ACK or NACK.
   *
   * @param response the response, sent as is
   * @return the number of streams it was sent on
   */
  public int sendRaw(DiscoveryResponse response) {
    return sendAsIs(response);
  }

  /**
   * Sends {@code response} unchanged, at once, on every open delta stream; see {@link
   * #sendRaw(DiscoveryResponse)}.
   *
   * @param response the delta response to send
   * @return the number of streams it was sent on
   */
  public int sendRawDelta(DeltaDiscoveryResponse response) {
    return sendAsIs(response);
  }

  private int sendAsIs(Message response) {
    return monitor.get(() -> {
      int sent = 0;
      for (AdsStream<?> stream : streams.all()) {
        if (stream.speaks(response)) {
          sender.sendAsIs(stream, response);
          sent++;
        }
      }
      return sent;
    });
  }
}
