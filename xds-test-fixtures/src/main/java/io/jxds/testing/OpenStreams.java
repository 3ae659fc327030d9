package io.jxds.testing;

import io.grpc.stub.ServerCallStreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ADS streams open on a {@link FakeAdsServer} now, and what they subscribe to. Get it from
 * {@link FakeAdsServer#streams()}:
 *
 * <pre>{@code
 * ads.streams().awaitCount(1, Duration.ofSeconds(5));
 * assertThat(ads.streams().subscribedNames(CLUSTER_TYPE_URL)).containsExactly("payments");
 * }</pre>
 *
 * <p>Thread-safe; every wait is bounded by its timeout.
 */
public final class OpenStreams {
  private static final Logger logger = LoggerFactory.getLogger(OpenStreams.class);

  private final Monitor monitor;
  // Guarded by monitor.
  private final Map<Long, AdsStream<?>> streams = new LinkedHashMap<>();
  private long nextId = 1;

  OpenStreams(Monitor monitor) {
    this.monitor = monitor;
  }

  /**
   * How many ADS streams are open now.
   *
   * @return the number of open streams
   */
  public int count() {
    return monitor.get(streams::size);
  }

  /**
   * Waits until exactly {@code count} ADS streams are open.
   *
   * @param count the number of streams
   * @param timeout how long to wait
   * @throws AssertionError on timeout
   */
  public void awaitCount(int count, Duration timeout) {
    monitor.await("streams", timeout, () -> streams.size() == count ? Boolean.TRUE : null,
        () -> "expected " + count + " open streams within " + timeout + ", have " + streams.size());
  }

  /**
   * The names of {@code typeUrl} currently subscribed on open streams (the union over streams),
   * sorted. A wildcard subscription (legacy empty first request for Listener or Cluster) adds no
   * names.
   *
   * @param typeUrl the type URL
   * @return the subscribed names, sorted
   */
  public Set<String> subscribedNames(String typeUrl) {
    return monitor.get(() -> {
      Set<String> names = new TreeSet<>();
      streams.values().forEach(stream -> stream.addSubscribedNames(typeUrl, names));
      return Collections.unmodifiableSet(names);
    });
  }

  /**
   * Opens a stream of either protocol (lock held); one opened while the server is not {@code
   * accepting} (it raced a stop, whose {@code shutdownNow} is cancelling the call) starts closed.
   */
  AdsStream<?> open(ServerCallStreamObserver<?> out, boolean delta, boolean accepting) {
    long id = nextId++;
    AdsStream<?> stream = delta ? new DeltaStream(id, out) : new SotwStream(id, out);
    if (accepting) {
      streams.put(id, stream);
    } else {
      stream.open = false;
    }
    monitor.changed();
    logger.debug("ADS stream {} opened", id);
    return stream;
  }

  /**
   * Closes a stream (lock held).
   *
   * @return whether it was open
   */
  boolean close(AdsStream<?> stream) {
    boolean wasOpen = stream.open;
    stream.open = false;
    streams.remove(stream.id);
    monitor.changed();
    return wasOpen;
  }

  /** Closes every open stream (lock held) and returns them, for a caller that ends them. */
  List<AdsStream<?>> closeAll() {
    List<AdsStream<?>> closed = new ArrayList<>(streams.values());
    closed.forEach(stream -> stream.open = false);
    streams.clear();
    monitor.changed();
    return closed;
  }

  /** The open streams (lock held). */
  Collection<AdsStream<?>> all() {
    return streams.values();
  }
}
