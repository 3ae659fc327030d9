package io.jxds.testing;

import com.google.protobuf.Message;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link FakeAdsServer} received: every request (also across restarts), classified per
 * stream and type ({@link RecordedRequest.Kind}), and waits for the one a test expects. Get it
 * from {@link FakeAdsServer#requests()}:
 *
 * <pre>{@code
 * ads.setClusters(XdsResources.cluster("payments").build());
 * RecordedRequest ack = ads.requests().awaitAck(CLUSTER_TYPE_URL, "1", Duration.ofSeconds(5));
 * assertThat(ads.requests().lastNack(CLUSTER_TYPE_URL)).isEmpty();
 * }</pre>
 *
 * <p>A delta request is recorded twice: as received ({@link #delta()}), and as a
 * state-of-the-world request ({@link #all()} and the waits) whose {@code version_info} is the
 * version an ACK accepts and whose {@code resource_names} are the names subscribed after it, so
 * the same assertions serve both protocols. Thread-safe; every wait is bounded by its timeout.
 */
public final class RequestLog {
  private static final Logger logger = LoggerFactory.getLogger(RequestLog.class);

  private final Monitor monitor;
  // Guarded by monitor.
  private final List<RecordedRequest> requests = new ArrayList<>();
  private final List<DeltaDiscoveryRequest> deltaRequests = new ArrayList<>();
  private final Map<String, RecordedRequest> lastAcks = new HashMap<>();
  private final Map<String, RecordedRequest> lastNacks = new HashMap<>();

  RequestLog(Monitor monitor) {
    this.monitor = monitor;
  }

  /**
   * Every request received so far.
   *
   * @return the requests, oldest first
   */
  public List<RecordedRequest> all() {
    return monitor.get(() -> List.copyOf(requests));
  }

  /**
   * Every request of {@code typeUrl} received so far.
   *
   * @param typeUrl the type URL
   * @return the requests, oldest first
   */
  public List<RecordedRequest> ofType(String typeUrl) {
    return monitor.get(() -> requests.stream().filter(r -> r.typeUrl().equals(typeUrl)).toList());
  }

  /**
   * Every delta request received so far, as received.
   *
   * @return the delta requests, oldest first
   */
  public List<DeltaDiscoveryRequest> delta() {
    return monitor.get(() -> List.copyOf(deltaRequests));
  }

  /**
   * Waits until a request of {@code typeUrl} matching {@code predicate} has been received (also
   * one received before the call) and returns the first such request.
   *
   * @param typeUrl the request's type URL
   * @param predicate what the request must satisfy
   * @param timeout how long to wait
   * @return the first matching request
   * @throws AssertionError if none arrives within {@code timeout}, listing what did arrive
   */
  public RecordedRequest await(String typeUrl, Predicate<? super RecordedRequest> predicate, Duration timeout) {
    return monitor.await("a " + typeUrl + " request", timeout,
        () -> requests.stream().filter(r -> r.typeUrl().equals(typeUrl) && predicate.test(r)).findFirst().orElse(null),
        () -> "no matching " + typeUrl + " request within " + timeout + "; received: "
            + requests.stream().filter(r -> r.typeUrl().equals(typeUrl)).toList());
  }

  /**
   * Waits for an ACK of {@code version} of {@code typeUrl}; see {@link #await}.
   *
   * @param typeUrl the type URL
   * @param version the ACKed {@code version_info}
   * @param timeout how long to wait
   * @return the first such ACK
   * @throws AssertionError if none arrives within {@code timeout}
   */
  public RecordedRequest awaitAck(String typeUrl, String version, Duration timeout) {
    return await(typeUrl, r -> r.kind() == RecordedRequest.Kind.ACK && r.versionInfo().equals(version), timeout);
  }

  /**
   * Waits for any NACK of {@code typeUrl}; see {@link #await}. Its {@link
   * RecordedRequest#errorMessage()} is the client's error text.
   *
   * @param typeUrl the type URL
   * @param timeout how long to wait
   * @return the first NACK
   * @throws AssertionError if none arrives within {@code timeout}
   */
  public RecordedRequest awaitNack(String typeUrl, Duration timeout) {
    return await(typeUrl, r -> r.kind() == RecordedRequest.Kind.NACK, timeout);
  }

  /**
   * The most recent ACK of {@code typeUrl} on any stream.
   *
   * @param typeUrl the type URL
   * @return the ACK, or empty when none arrived since the start or {@link #clear()}
   */
  public Optional<RecordedRequest> lastAck(String typeUrl) {
    return monitor.get(() -> Optional.ofNullable(lastAcks.get(typeUrl)));
  }

  /**
   * The most recent NACK of {@code typeUrl} on any stream; its {@link
   * RecordedRequest#errorMessage()} is the client's error text.
   *
   * @param typeUrl the type URL
   * @return the NACK, or empty when none arrived since the start or {@link #clear()}
   */
  public Optional<RecordedRequest> lastNack(String typeUrl) {
    return monitor.get(() -> Optional.ofNullable(lastNacks.get(typeUrl)));
  }

  /**
   * Forgets the recorded requests, ACKs and NACKs (not the streams' subscriptions or nonces), so
   * that later waits and {@link #lastAck} see only what arrives next.
   */
  public void clear() {
    monitor.run(() -> {
      requests.clear();
      deltaRequests.clear();
      lastAcks.clear();
      lastNacks.clear();
    });
  }

  /** Records a request as classified, and a delta request as received too (lock held). */
  void record(RecordedRequest recorded, Message received) {
    if (received instanceof DeltaDiscoveryRequest delta) {
      deltaRequests.add(delta);
    }
    requests.add(recorded);
    if (recorded.kind() == RecordedRequest.Kind.ACK) {
      lastAcks.put(recorded.typeUrl(), recorded);
    } else if (recorded.kind() == RecordedRequest.Kind.NACK) {
      lastNacks.put(recorded.typeUrl(), recorded);
    }
    monitor.changed();
    logger.debug("ADS request {}", recorded);
  }
}
