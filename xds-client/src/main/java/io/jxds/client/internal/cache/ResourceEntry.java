package io.jxds.client.internal.cache;

import com.google.protobuf.Any;
import io.grpc.Status;
import io.grpc.SynchronizationContext.ScheduledHandle;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One resource of the cache: its watchers, cached value, state and timers. Owned by the sync
 * context.
 *
 * <p>It is subscribed (its name is on the wire) while it has watchers. Without watchers it is held
 * while the request left standing for its type still names it (responses still apply to it), and
 * otherwise only retained: its cached value waits, for the cache retention time, for a watcher to
 * come back, and responses, does-not-exist timers and deletions no longer concern it. The state
 * changes are the methods below; {@link ResourceCache} decides when they happen and tells the
 * watchers.
 */
final class ResourceEntry<T> {
  final TypeCache<T> owner;
  final ResourceType<T> type;
  final String name;
  final List<WatcherRegistration<T>> watchers = new ArrayList<>(1);

  private T value;
  /** Version of {@link #value}; empty when none. */
  private String version = "";
  /** Which server sent {@link #value} (delta: its version means something only to that one). */
  private ServerId source;
  /**
   * Delta: the live stream that knows the client holds {@link #value} (it sent it, or was told
   * so in {@code initial_resource_versions}), so it would send the value's change or removal;
   * null once that stream has ended, or for state of the world.
   */
  private StreamId vouchingStream;
  /** {@link TypeCache#nextSubscriptionMark()} when the name last went on the wire. */
  private long subscribedMark;
  private ResourceState state = ResourceState.REQUESTED;
  /** The control plane said it does not exist (timer or SotW deletion). */
  private boolean absent;
  /** Watched again with a retained value: awaiting the answer that confirms or replaces it. */
  private boolean confirming;
  private Instant lastUpdated;
  /** Per-resource error text for status(), null when none. */
  private String lastError;
  /** The error a new watcher of a resource without a value is told, null when none. */
  private Status lastErrorStatus;

  private ScheduledHandle doesNotExistTimer;
  /** {@link TypeCache#responses()} when the does-not-exist timer was armed. */
  private long responsesWhenTimerArmed;
  private ScheduledHandle retentionTimer;
  /**
   * Concludes a postponed deletion (see {@link #missingSinceNanos}); cancelled when a stream
   * closes, re-armed for the time left by the next response that still lacks the name.
   */
  private ScheduledHandle deletionTimer;
  /**
   * When the cached value was first seen missing from a state-of-the-world response whose
   * absence could not yet count as a deletion (a stream's first response), on the cache's
   * monotonic ticker; kept across streams, so that streams recycled faster than the resource
   * timeout cannot postpone a deletion forever. Meaningful only while {@link #missing}.
   */
  private long missingSinceNanos;
  private boolean missing;
  /** gRFC A53: a deletion was ignored and not yet followed by the resource coming back. */
  private boolean deletionIgnored;
  /** The response sequence number in which the resource last appeared (for SotW absence). */
  private long seenInResponse;
  /** The value as received (the response's own {@code Any}, not a copy), for CSDS; null when none. */
  private Any raw;
  /** The version of the last response that rejected this resource; null when none since the last value. */
  private String rejectedVersion;
  private Instant lastRejected;
  /** Cached status() entry; null when stale. */
  private ResourceStatus status;

  ResourceEntry(TypeCache<T> owner, String name) {
    this.owner = owner;
    this.type = owner.type;
    this.name = name;
  }

  T value() {
    return value;
  }

  /** A value or a known absence: what a watcher is told at once, and what the cache retains. */
  boolean known() {
    return value != null || absent;
  }

  boolean absent() {
    return absent;
  }

  /** The cached value's version ({@code Resource.version} in delta); empty when none. */
  String version() {
    return version;
  }

  ServerId source() {
    return source;
  }

  /** Delta: whether a live stream knows the client holds the value (see {@link #vouchingStream}). */
  boolean vouched() {
    return vouchingStream != null;
  }

  /**
   * Delta: {@code stream} was told the client holds the value ({@code initial_resource_versions}),
   * so it sends the value's change or removal: a value watched again and awaiting the server is
   * as good as ACKED, like one watched all along.
   */
  void vouchedBy(StreamId stream) {
    vouchingStream = stream;
    if (value != null && state == ResourceState.REQUESTED) {
      state = ResourceState.ACKED;
      invalidateStatus();
    }
  }

  /** Delta: {@code stream} ended; a value it vouched for is no longer known to be current. */
  void streamEnded(StreamId stream) {
    if (stream.equals(vouchingStream)) {
      vouchingStream = null;
    }
  }

  long subscribedMark() {
    return subscribedMark;
  }

  /** The name goes (back) on the wire now; {@code mark} orders it among the type's requests. */
  void subscribedAt(long mark) {
    subscribedMark = mark;
  }

  ResourceState state() {
    return state;
  }

  Status lastErrorStatus() {
    return lastErrorStatus;
  }

  /** Whether it is watched (and so on the wire): it has watchers. */
  boolean subscribed() {
    return !watchers.isEmpty();
  }

  /** Whether the server was last asked for it: watched, or held by a standing request. */
  boolean onWire() {
    return subscribed() || owner.isHeld(name);
  }

  /**
   * Still waiting for the control plane's first answer since it was (re)subscribed: what arms the
   * does-not-exist timer. A value, a NACK or a known absence is an answer.
   */
  boolean awaitingAnswer() {
    return state == ResourceState.REQUESTED || confirming;
  }

  /** The window in which a response may predate the re-subscription is over. */
  void confirmationWindowClosed() {
    confirming = false;
  }

  /**
   * A valid value arrived (delta: on {@code stream}; null in state of the world), {@code rawValue}
   * as the server sent it. Returns whether it differs from the cached one.
   */
  boolean accept(T newValue, String newVersion, Instant now, StreamId stream, Any rawValue) {
    source = stream == null ? null : stream.server();
    vouchingStream = stream;
    confirming = false;
    cancelDoesNotExistTimer();
    clearMissing();
    boolean changed = value == null || !newValue.equals(value);
    value = newValue;
    version = newVersion;
    state = ResourceState.ACKED;
    absent = false;
    lastUpdated = now;
    raw = rawValue;
    lastError = null;
    lastErrorStatus = null;
    rejectedVersion = null;
    lastRejected = null;
    invalidateStatus();
    return changed;
  }

  /** The control plane sent an invalid version; the last good value, if any, stays. */
  void reject(String error, Status errorStatus, String version, Instant now) {
    confirming = false;
    rejectedVersion = version;
    lastRejected = now;
    cancelDoesNotExistTimer();
    state = ResourceState.NACKED;
    absent = false;
    lastError = error;
    lastErrorStatus = errorStatus;
    invalidateStatus();
  }

  /** The control plane said it does not exist (or never answered): the value is dropped. */
  void markAbsent(String why) {
    confirming = false;
    cancelDoesNotExistTimer();
    clearMissing();
    value = null;
    raw = null;
    vouchingStream = null;
    absent = true;
    state = ResourceState.DOES_NOT_EXIST;
    lastError = why;
    lastErrorStatus = null;
    invalidateStatus();
  }

  /** The ADS stream failed before it could answer; a resource with a result keeps it. */
  void streamFailure(String detail, Status errorStatus) {
    lastError = detail;
    lastErrorStatus = errorStatus;
    invalidateStatus();
  }

  /**
   * The last watcher left: the name leaves the wire, and nothing about it is decided any more
   * (no timer, no postponed deletion) while no response covers it.
   */
  void unsubscribe() {
    confirming = false;
    cancelDoesNotExistTimer();
    clearMissing();
    invalidateStatus();
  }

  /**
   * A watcher came back to a retained value: the name is requested again and the cached value
   * stays usable until a fresh response replaces, rejects or deletes it.
   *
   * <p>If no response of the type was accepted since the value left the wire, the value is at the
   * version the client last ACKed, and the request that names it again carries that version: it
   * tells the server the client holds it, and a server that tracks what each client holds
   * (java-control-plane compares a request's names with those of the last response the client
   * ACKed) has nothing to send. So the value stays ACKED; otherwise it is REQUESTED until a
   * response covers it. A name known not to exist stays DOES_NOT_EXIST until a response brings
   * it. Either way it awaits an answer for the resource timeout, so that a response sent before
   * the server saw the request, which lacks the name, is not taken for its deletion.
   *
   * @param acceptedVersion the version of the type's last response accepted whole
   */
  void resubscribe(String acceptedVersion) {
    cancelRetentionTimer();
    if (absent) {
      state = ResourceState.DOES_NOT_EXIST; // as known when it left the wire, until told otherwise
    } else if (value != null && !acceptedVersion.isEmpty() && acceptedVersion.equals(version)) {
      state = ResourceState.ACKED;
    } else {
      state = ResourceState.REQUESTED;
    }
    confirming = known();
    lastError = null;
    lastErrorStatus = null;
    invalidateStatus();
  }

  boolean missing() {
    return missing;
  }

  long missingSinceNanos() {
    return missingSinceNanos;
  }

  /** First seen missing at {@code nowNanos}, unless already known missing. */
  void markMissing(long nowNanos) {
    if (!missing) {
      missing = true;
      missingSinceNanos = nowNanos;
    }
  }

  /** It appeared again, was deleted, or left the wire: no postponed deletion is pending. */
  void clearMissing() {
    missing = false;
    cancelDeletionTimer();
  }

  /** It appeared in the response numbered {@code sequence} (ResourceCache's count). */
  void seenIn(long sequence) {
    seenInResponse = sequence;
  }

  boolean wasSeenIn(long sequence) {
    return seenInResponse == sequence;
  }

  /** gRFC A53: a deletion is ignored. Returns whether it is the first since the value came. */
  boolean ignoreDeletion() {
    boolean first = !deletionIgnored;
    deletionIgnored = true;
    return first;
  }

  /** The value came back or left the wire. Returns whether a deletion had been ignored. */
  boolean clearIgnoredDeletion() {
    boolean was = deletionIgnored;
    deletionIgnored = false;
    return was;
  }

  boolean hasDoesNotExistTimer() {
    return doesNotExistTimer != null;
  }

  /** Arms the does-not-exist timer, noting how many responses of the type came before it. */
  void doesNotExistTimerStarted(ScheduledHandle timer) {
    responsesWhenTimerArmed = owner.responses();
    doesNotExistTimer = timer;
  }

  void doesNotExistTimerFired() {
    doesNotExistTimer = null;
  }

  /** Whether a response of the type was applied since the does-not-exist timer was armed. */
  boolean responseSinceTimerArmed() {
    return owner.responses() != responsesWhenTimerArmed;
  }

  /** Whether it waits, off the wire, for its retention time to end. */
  boolean retained() {
    return retentionTimer != null;
  }

  void retentionStarted(ScheduledHandle timer) {
    retentionTimer = timer;
  }

  void retentionTimerFired() {
    retentionTimer = null;
  }

  boolean hasDeletionTimer() {
    return deletionTimer != null;
  }

  void deletionTimerStarted(ScheduledHandle timer) {
    deletionTimer = timer;
  }

  void deletionTimerFired() {
    deletionTimer = null;
  }

  /** Something status() shows changed. */
  void invalidateStatus() {
    status = null;
    owner.invalidateStatuses();
  }

  void cancelDoesNotExistTimer() {
    if (doesNotExistTimer != null) {
      doesNotExistTimer.cancel();
      doesNotExistTimer = null;
    }
  }

  void cancelDeletionTimer() {
    if (deletionTimer != null) {
      deletionTimer.cancel();
      deletionTimer = null;
    }
  }

  void cancelRetentionTimer() {
    if (retentionTimer != null) {
      retentionTimer.cancel();
      retentionTimer = null;
    }
  }

  void cancelTimers() {
    cancelDoesNotExistTimer();
    cancelDeletionTimer();
    cancelRetentionTimer();
  }

  ResourceStatus status() {
    if (status == null) {
      status =
          new ResourceStatus(
              type.typeUrl(),
              name,
              version,
              state,
              Optional.ofNullable(lastUpdated),
              Optional.ofNullable(lastError),
              Optional.ofNullable(raw),
              Optional.ofNullable(rejectedVersion),
              Optional.ofNullable(lastRejected));
    }
    return status;
  }
}
