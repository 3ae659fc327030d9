package io.jxds.client.internal.cache;

import com.google.protobuf.Any;
import io.grpc.Status;
import io.jxds.api.XdsResourceException;
import io.jxds.api.internal.ResourceDecoding;
import io.jxds.api.internal.UnpackedResource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the resources of one response (either protocol) to the cache, and what it found: which
 * were valid, the errors of a NACK, whether an {@code Any} could not be read.
 *
 * <p>gRFC A46: a resource whose name is not on the wire is neither validated nor cached; a valid
 * resource applies even when others of the same response are rejected; an {@code Any} that
 * cannot be unpacked is an error naming its index. A rejection keeps the last good value
 * (NACKED, ARCHITECTURE.md, "Glossary") and is told to the watchers as an error. Watchers hear a
 * value only when it changed ({@code equals} on the model); its version and update time advance
 * anyway.
 */
final class AppliedResponse {
  private static final Logger log = LoggerFactory.getLogger(AppliedResponse.class);

  /** The cache's number for this response: which names it carried ({@code seenIn}). */
  final long sequence;
  private final Instant now;
  private final CallbackTracker tracker;
  /** The delta stream the response came on; null in state of the world. */
  private final StreamId stream;
  private final WatcherDelivery delivery;
  /**
   * The state-of-the-world stream's controller when streams carry different names (federation,
   * gRFC A47), else null: a resource whose name that stream did not request is ignored.
   */
  private final Object via;
  private List<String> errors;
  /** Resources validated and cached (A78's resource_updates_valid). */
  private int valid;
  /** An Any whose name cannot be read may hold any name on the wire: absences prove nothing then. */
  private boolean unnamedFailure;

  /**
   * @param tracker counts the watcher callbacks this response causes; null for a kept delta
   *     resource applied when watched
   */
  AppliedResponse(long sequence, Instant now, CallbackTracker tracker, StreamId stream, WatcherDelivery delivery) {
    this(sequence, now, tracker, stream, delivery, null);
  }

  /** @param via see {@link #via} */
  AppliedResponse(long sequence, Instant now, CallbackTracker tracker, StreamId stream, WatcherDelivery delivery,
      Object via) {
    this.sequence = sequence;
    this.now = now;
    this.tracker = tracker;
    this.stream = stream;
    this.delivery = delivery;
    this.via = via;
  }

  /** The entry of {@code name} if it is on the wire and was requested on this response's stream. */
  private <T> ResourceEntry<T> requested(TypeCache<T> t, String name) {
    ResourceEntry<T> entry = t.onWire(name);
    return entry == null || via == null || entry.servers().carries(via) ? entry : null;
  }

  int valid() {
    return valid;
  }

  int errorCount() {
    return errors == null ? 0 : errors.size();
  }

  boolean unnamedFailure() {
    return unnamedFailure;
  }

  /** ACK, recording {@code version} as the type's accepted one, or NACK naming every error. */
  ResponseOutcome outcome(TypeCache<?> t, String version) {
    if (errors == null) {
      t.accepted(version);
      return ResponseOutcome.ACCEPTED;
    }
    return new ResponseOutcome(errors);
  }

  /** Unpacks, validates and caches one resource, {@code index} of its response, at {@code version}. */
  <T> void apply(TypeCache<T> t, Any any, int index, String version) {
    UnpackedResource<T> unpacked;
    try {
      unpacked = ResourceDecoding.unpack(t.type, any);
    } catch (XdsResourceException e) {
      error(ResponseOutcome.unreadable(t.type.shortName(), index, e.getMessage()));
      ResourceEntry<T> entry = e.resourceName() == null ? null : requested(t, e.resourceName());
      if (entry != null) {
        entry.seenIn(sequence);
        reject(entry, version, e.getMessage());
      } else if (e.resourceName() == null) {
        unnamedFailure = true;
      }
      return;
    } catch (RuntimeException e) {
      error(t.type.shortName() + " resource index " + index + ": cannot decode: " + e);
      unnamedFailure = true;
      return;
    }
    ResourceEntry<T> entry = requested(t, unpacked.name());
    if (entry == null) {
      return; // gRFC A46: not on the wire (of this stream), so it is neither validated nor cached
    }
    entry.seenIn(sequence);
    T value;
    try {
      value = unpacked.decode();
    } catch (XdsResourceException e) {
      error(e.getMessage());
      reject(entry, version, e.getMessage());
      return;
    } catch (RuntimeException e) {
      String message = t.type.shortName() + " resource \"" + entry.name + "\": unexpected error: " + e;
      error(message);
      reject(entry, version, message);
      return;
    }
    accept(entry, value, version, any);
    valid++;
  }

  private void error(String error) {
    if (errors == null) {
      errors = new ArrayList<>();
    }
    errors.add(error);
  }

  private <T> void accept(ResourceEntry<T> entry, T value, String version, Any raw) {
    boolean first = entry.value() == null;
    boolean changed = entry.accept(value, version, now, stream, raw);
    if (entry.clearIgnoredDeletion()) {
      log.info("{} resource \"{}\" is back after an ignored deletion", entry.type().shortName(), entry.name);
    }
    if (first) {
      log.info("{} resource \"{}\" received, version \"{}\"", entry.type().shortName(), entry.name, version);
    }
    if (changed) {
      delivery.tellUpdate(entry, value, tracker);
    }
  }

  private <T> void reject(ResourceEntry<T> entry, String version, String message) {
    // Per resource, not the whole response's text (grpc-java keeps the whole text on each).
    String error = "version \"" + version + "\" rejected: " + message;
    Status status = delivery.errorStatus(entry, "INVALID_ARGUMENT: " + error);
    entry.reject(error, status, version, now);
    delivery.tellError(entry, status, tracker);
  }
}
