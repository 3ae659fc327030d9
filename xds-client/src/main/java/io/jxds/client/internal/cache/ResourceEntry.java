package io.jxds.client.internal.cache;

import com.google.protobuf.Any;
import io.grpc.Status;
import io.grpc.SynchronizationContext.ScheduledHandle;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One resource of the cache: its watchers, the timers it owns, and two small state machines whose
 * states ARCHITECTURE.md, "Glossary", defines. Owned by the client's sync context.
 *
 * <pre>
 * where the name is ({@link Wire}), with the methods that move it:
 *
 *   new ──▶ WATCHED ──unwatch──┬──▶ HELD      its type's last name, on a state-of-the-world stream
 *            ▲   ▲             ├──▶ RETAINED  a value or an absence, for the retention time
 *            │   │             └──▶ GONE      nothing to retain
 *            │   └── watchAgainWhileHeld ── HELD ──releaseHold──▶ RETAINED, or GONE if retention is over
 *            └────── watchAgain ─────── RETAINED ──retention over──▶ GONE
 *
 * what is known ({@link Knowledge}):
 *
 *   NOTHING ──accept, reject, markAbsent──▶ VALUE, NACKED, ABSENT, which the same three change
 *   into each other (a name watched again may go from NACKED back to VALUE: watchAgain)
 * </pre>
 *
 * <p>A NACK of a resource that has a value leaves {@link Knowledge#NACKED} with the last good
 * value kept ({@link #value()} is not null): watchers keep using it, status shows NACKED.
 *
 * <p>Each transition is one method, which checks the state it leaves: calling it from another one
 * is a bug, an {@link IllegalStateException}. The rule classes of the package decide when a
 * transition happens and tell the watchers: {@link ResourceCache} (watching), {@link
 * AppliedResponse} (values and NACKs), {@link AbsenceRules} (absence, deletions and timers).
 */
final class ResourceEntry<T> {
  private static final Logger log = LoggerFactory.getLogger(ResourceEntry.class);

  /** Where a name is on the wire (ARCHITECTURE.md, "Glossary"). */
  enum Wire {
    WATCHED,
    HELD,
    RETAINED,
    GONE
  }

  /** What is known about a resource (ARCHITECTURE.md, "Glossary"). */
  enum Knowledge {
    NOTHING,
    VALUE,
    ABSENT,
    NACKED
  }

  /** What an entry tells the resources of its type (its {@link TypeCache}). */
  interface Owner {
    /** The type of its resources. */
    ResourceType<?> type();

    /** The entry moved from {@code from} to its current {@link #wire()}. */
    void wireChanged(ResourceEntry<?> entry, Wire from);

    /** Something {@code status()} shows changed. */
    void statusChanged();

    /** Responses of the type applied so far. */
    long responses();

    /** Runs {@code task} on the sync context after {@code delayNanos}. */
    ScheduledHandle schedule(Runnable task, long delayNanos);
  }

  /** The last version a response rejected, and when: CSDS's {@code error_state}. */
  private record Rejection(String version, Instant at) {}

  final String name;
  private final Owner owner;
  /** The fallback chain (gRFC A71) of the name's authority (gRFC A47): it carries the name. */
  private final Servers servers;
  private final List<WatcherRegistration<T>> watchers = new ArrayList<>(1);
  private Wire wire = Wire.WATCHED;
  private Knowledge knowledge = Knowledge.NOTHING;

  /** The last good value: with VALUE, or NACKED with a last good value; null otherwise. */
  private T value;
  /** Its version ({@code Resource.version} in delta); stays after a deletion, for status. */
  private String version = "";
  /** The value as received (the response's own {@code Any}, not a copy), for CSDS. */
  private Any raw;
  private Instant lastUpdated;
  /** Which server sent the value (delta: its version means something only to that one). */
  private ServerId source;
  /** Delta: the live stream that vouches for the value (ARCHITECTURE.md, "Glossary"). */
  private StreamId vouchingStream;
  /** A value watched again that is unconfirmed: status REQUESTED until an answer. */
  private boolean unconfirmed;
  /** Its request reached a ready stream (its does-not-exist timer was armed): REQUESTED, not UNKNOWN. */
  private boolean requested;
  /** ABSENT because the does-not-exist timer fired, not a deletion: status TIMEOUT (gRFC A40). */
  private boolean timedOut;
  private Rejection rejection;
  /** status()'s error text: a rejection, an absence's reason or a stream failure. */
  private String errorText;
  /** The error a new watcher of a resource without a value is told; null when none. */
  private Status error;

  /** {@link TypeCache#nextMark()} when the name last went on the wire. */
  private long wireMark;
  /** Watched again while cached, within its resource timeout (ARCHITECTURE.md, "Glossary"). */
  private boolean rewatchWindow;
  /** The response sequence number in which the resource last appeared (state-of-the-world absence). */
  private long seenInResponse;
  /** gRFC A53: a deletion was ignored and the resource did not come back since. */
  private boolean deletionIgnored;
  /** A postponed deletion is pending, counted from {@link #postponedSinceNanos}. */
  private boolean deletionPostponed;
  /** Monotonic time of the first response that lacked it; kept across streams. */
  private long postponedSinceNanos;

  private ScheduledHandle doesNotExistTimer;
  /** {@link Owner#responses()} when the does-not-exist timer was armed. */
  private long responsesWhenArmed;
  /** Concludes a postponed deletion; cancelled when the stream closes, the postponement stays. */
  private ScheduledHandle deletionTimer;
  private ScheduledHandle retentionTimer;
  /** Cached status() entry; null when stale. */
  private ResourceStatus status;

  /** A name watched for the first time: WATCHED, knowing nothing, gone on the wire at {@code mark}. */
  ResourceEntry(String name, Owner owner, Servers servers, long mark) {
    this.name = name;
    this.owner = owner;
    this.servers = servers;
    this.wireMark = mark;
  }

  // ---- where the name is ----

  Wire wire() {
    return wire;
  }

  boolean watched() {
    return wire == Wire.WATCHED;
  }

  /** Watched or held: the server was last asked for it, and its responses apply to it. */
  boolean onWire() {
    return wire == Wire.WATCHED || wire == Wire.HELD;
  }

  long wireMark() {
    return wireMark;
  }

  /**
   * A stream already open starts carrying the name (its chain fell back to that server): only an
   * answer to a request written from now on names it.
   */
  void remark(long mark) {
    wireMark = mark;
  }

  /** The chain that carries the name. */
  Servers servers() {
    return servers;
  }

  /** The resource's type (its owner's: one field fewer per entry). */
  @SuppressWarnings("unchecked")
  ResourceType<T> type() {
    return (ResourceType<T>) owner.type();
  }

  List<WatcherRegistration<T>> watchers() {
    return Collections.unmodifiableList(watchers);
  }

  boolean hasWatchers() {
    return !watchers.isEmpty();
  }

  void addWatcher(WatcherRegistration<T> registration) {
    require(wire == Wire.WATCHED, "add a watcher");
    watchers.add(registration);
  }

  /** Whether {@code registration} was a watcher; the name stays watched until {@link #unwatch}. */
  boolean removeWatcher(WatcherRegistration<?> registration) {
    return watchers.remove(registration);
  }

  /** HELD to WATCHED: it never left the wire, so what is known is current. */
  void watchAgainWhileHeld(long mark) {
    require(wire == Wire.HELD, "watch again while held");
    cancelRetentionTimer();
    wireMark = mark;
    moveTo(Wire.WATCHED);
  }

  /**
   * RETAINED to WATCHED: the name is requested again and the retained value stays usable until
   * an answer replaces, rejects or deletes it; a retained absence stays ABSENT until a response
   * brings the resource. Either way the name is in its re-watch window for the resource timeout,
   * so that a response sent before the server saw the request, which lacks the name, is not
   * taken for its deletion.
   *
   * <p>A value at {@code currentVersion} is one the server believes the client holds, and a server
   * that tracks what each client holds (java-control-plane compares a request's names with those
   * of the last response the client ACKed) sends nothing for it: it stays confirmed (ACKED).
   * Otherwise it is unconfirmed (REQUESTED) until an answer.
   *
   * @param currentVersion state of the world: the version of the type's last response accepted
   *     whole (a value at it was ACKed and not changed since); delta: the value's own version
   *     while a live stream vouches for it; empty when none
   */
  void watchAgain(String currentVersion, long mark) {
    require(wire == Wire.RETAINED && cached(), "watch a retained name again");
    cancelRetentionTimer();
    if (value != null) {
      knowledge = Knowledge.VALUE;
      unconfirmed = currentVersion.isEmpty() || !currentVersion.equals(version);
    }
    rewatchWindow = true;
    errorText = null;
    error = null;
    wireMark = mark;
    moveTo(Wire.WATCHED);
  }

  /**
   * WATCHED to HELD, RETAINED or GONE: the last watcher left. Nothing about it is decided any more
   * while no response covers it: no does-not-exist timer, no postponed deletion. A value or an
   * absence is retained for {@code retention}, held or not.
   *
   * @param hold the type's last watched name on a state-of-the-world stream: the request naming
   *     it stands (ARCHITECTURE.md, "The xDS client")
   * @param retention the cache retention time; zero retains nothing
   */
  void unwatch(boolean hold, Duration retention) {
    require(wire == Wire.WATCHED && watchers.isEmpty(), "unwatch");
    rewatchWindow = false;
    cancelDoesNotExistTimer();
    cancelPostponedDeletion();
    boolean retain = cached() && !retention.isZero();
    if (retain) {
      retentionTimer = owner.schedule(this::retentionOver, retention.toNanos());
    }
    moveTo(hold ? Wire.HELD : retain ? Wire.RETAINED : Wire.GONE);
  }

  /** HELD to RETAINED, or GONE when nothing is left to retain or its retention is over. */
  void releaseHold() {
    require(wire == Wire.HELD, "release a hold");
    rewatchWindow = false;
    cancelDoesNotExistTimer();
    cancelPostponedDeletion();
    moveTo(cached() && retentionTimer != null ? Wire.RETAINED : Wire.GONE);
  }

  /** The retention time is over: a retained name is forgotten, a held one when its hold ends. */
  private void retentionOver() {
    retentionTimer = null;
    if (wire == Wire.RETAINED) {
      moveTo(Wire.GONE);
      log.debug("{} resource \"{}\" dropped from the cache", type().shortName(), name);
    }
  }

  /** The client is closing: every timer stops, no watcher hears anything more. */
  void close() {
    cancelTimers();
    for (WatcherRegistration<T> w : watchers) {
      w.cancel();
    }
  }

  private void moveTo(Wire to) {
    Wire from = wire;
    wire = to;
    if (to == Wire.GONE) {
      cancelTimers();
    }
    statusChanged();
    owner.wireChanged(this, from);
  }

  // ---- what is known ----

  Knowledge knowledge() {
    return knowledge;
  }

  /** The last good value (also while NACKED), or null. */
  T value() {
    return value;
  }

  /** Cached: a value (NACKed or not) or an absence; what a new watcher is told at once. */
  boolean cached() {
    return value != null || knowledge == Knowledge.ABSENT;
  }

  boolean absent() {
    return knowledge == Knowledge.ABSENT;
  }

  /** The cached value's version ({@code Resource.version} in delta); empty when none. */
  String version() {
    return version;
  }

  ServerId source() {
    return source;
  }

  /** The error a new watcher of a resource without a value is told, or null. */
  Status error() {
    return error;
  }

  /**
   * A valid value arrived (delta: on {@code stream}, which sent it and so vouches for it; null in
   * state of the world), {@code rawValue} as the server sent it. Returns whether it differs from
   * the cached one.
   */
  boolean accept(T newValue, String newVersion, Instant now, StreamId stream, Any rawValue) {
    require(onWire(), "accept a value");
    answered();
    cancelPostponedDeletion();
    boolean changed = value == null || !newValue.equals(value);
    knowledge = Knowledge.VALUE;
    value = newValue;
    version = newVersion;
    lastUpdated = now;
    raw = rawValue;
    source = stream == null ? null : stream.server();
    vouchingStream = stream;
    errorText = null;
    error = null;
    rejection = null;
    timedOut = false;
    statusChanged();
    return changed;
  }

  /** The control plane sent an invalid version; the last good value, if any, stays. */
  void reject(String detail, Status status, String rejectedVersion, Instant now) {
    require(onWire(), "reject");
    answered();
    knowledge = Knowledge.NACKED;
    rejection = new Rejection(rejectedVersion, now);
    errorText = detail;
    error = status;
    statusChanged();
  }

  /**
   * It does not exist (a deletion, or no answer in time: {@code timedOut}): the value is dropped.
   */
  void markAbsent(String why, boolean timedOut) {
    require(wire != Wire.GONE, "mark absent");
    answered();
    cancelPostponedDeletion();
    this.timedOut = timedOut;
    knowledge = Knowledge.ABSENT;
    value = null;
    raw = null;
    vouchingStream = null;
    errorText = why;
    error = null;
    statusChanged();
  }

  private void answered() {
    rewatchWindow = false;
    unconfirmed = false;
    cancelDoesNotExistTimer();
  }

  /** The ADS stream failed before it could answer; what is known stays. */
  void streamFailed(String detail, Status status) {
    require(wire == Wire.WATCHED, "report a stream failure");
    errorText = detail;
    error = status;
    statusChanged();
  }

  /** Delta: whether a live stream vouches for the value. */
  boolean vouched() {
    return vouchingStream != null;
  }

  /**
   * Delta: {@code stream} was told the client holds the value ({@code initial_resource_versions}),
   * so it sends the value's change or removal: an unconfirmed value is as good as confirmed.
   */
  void vouchedBy(StreamId stream) {
    require(wire == Wire.WATCHED, "be vouched for");
    vouchingStream = stream;
    if (knowledge == Knowledge.VALUE && unconfirmed) {
      unconfirmed = false;
      statusChanged();
    }
  }

  /** Delta: {@code stream} ended; a value it vouched for is vouched for no more. */
  void streamEnded(StreamId stream) {
    if (stream.equals(vouchingStream)) {
      vouchingStream = null;
    }
  }

  // ---- awaiting the answer, absence, deletions ----

  /**
   * Whether it awaits its answer (ARCHITECTURE.md, "Glossary"): it knows nothing, its value is
   * unconfirmed, or it is in its re-watch window. Arms the does-not-exist timer.
   */
  boolean awaitingAnswer() {
    return knowledge == Knowledge.NOTHING || unconfirmed || rewatchWindow;
  }

  /** The re-watch window is over: from now on absence from a response can count. */
  void closeRewatchWindow() {
    rewatchWindow = false;
  }

  /** It appeared in the response numbered {@code sequence} (the cache's count). */
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

  /**
   * Missing from a stream's first response: the deletion is postponed, counted from the first
   * response that lacked it on whichever stream. Returns how long it has been postponed.
   */
  long postponeDeletion(long nowNanos) {
    require(onWire(), "postpone a deletion");
    if (!deletionPostponed) {
      deletionPostponed = true;
      postponedSinceNanos = nowNanos;
    }
    return nowNanos - postponedSinceNanos;
  }

  boolean deletionPostponed() {
    return deletionPostponed;
  }

  boolean hasDeletionTimer() {
    return deletionTimer != null;
  }

  /** Concludes the postponed deletion with {@code conclude} after {@code delayNanos}. */
  void armDeletionTimer(long delayNanos, Runnable conclude) {
    require(deletionPostponed && deletionTimer == null, "arm a deletion timer");
    deletionTimer = owner.schedule(() -> {
      deletionTimer = null;
      conclude.run();
    }, delayNanos);
  }

  /** It appeared again, was deleted, or left the wire: no deletion is postponed. */
  void cancelPostponedDeletion() {
    deletionPostponed = false;
    if (deletionTimer != null) {
      deletionTimer.cancel();
      deletionTimer = null;
    }
  }

  boolean hasDoesNotExistTimer() {
    return doesNotExistTimer != null;
  }

  /** Runs {@code fired} after {@code delayNanos} unless an answer comes first. */
  void armDoesNotExistTimer(long delayNanos, Runnable fired) {
    require(wire == Wire.WATCHED && doesNotExistTimer == null, "arm a does-not-exist timer");
    responsesWhenArmed = owner.responses();
    if (!requested) {
      requested = true;
      statusChanged();
    }
    doesNotExistTimer = owner.schedule(() -> {
      doesNotExistTimer = null;
      fired.run();
    }, delayNanos);
  }

  /** Whether its request ever reached a ready stream (status REQUESTED rather than UNKNOWN). */
  boolean requested() {
    return requested;
  }

  /** Whether a response of the type was applied since the does-not-exist timer was armed. */
  boolean responseSinceTimerArmed() {
    return owner.responses() != responsesWhenArmed;
  }

  /**
   * No stream can answer (gRFC A57): the does-not-exist timer and a postponed deletion's timer
   * stop; the postponement keeps its start, for the next stream to go on from.
   */
  void stopTimers() {
    cancelDoesNotExistTimer();
    if (deletionTimer != null) {
      deletionTimer.cancel();
      deletionTimer = null;
    }
  }

  private void cancelDoesNotExistTimer() {
    if (doesNotExistTimer != null) {
      doesNotExistTimer.cancel();
      doesNotExistTimer = null;
    }
  }

  private void cancelRetentionTimer() {
    if (retentionTimer != null) {
      retentionTimer.cancel();
      retentionTimer = null;
    }
  }

  private void cancelTimers() {
    stopTimers();
    cancelRetentionTimer();
  }

  // ---- status ----

  private void statusChanged() {
    status = null;
    owner.statusChanged();
  }

  /** CSDS's view (gRFC A40's {@code ClientResourceStatus}), rebuilt only after a change. */
  ResourceStatus status() {
    if (status == null) {
      status =
          new ResourceStatus(
              type().typeUrl(),
              name,
              version,
              switch (knowledge) {
                case NOTHING -> requested ? ResourceState.REQUESTED : ResourceState.UNKNOWN;
                case VALUE -> unconfirmed ? ResourceState.REQUESTED : ResourceState.ACKED;
                case ABSENT -> timedOut ? ResourceState.TIMEOUT : ResourceState.DOES_NOT_EXIST;
                case NACKED -> ResourceState.NACKED;
              },
              Optional.ofNullable(lastUpdated),
              Optional.ofNullable(errorText),
              Optional.ofNullable(raw),
              Optional.ofNullable(rejection).map(Rejection::version),
              Optional.ofNullable(rejection).map(Rejection::at));
    }
    return status;
  }

  private void require(boolean legal, String transition) {
    if (!legal) {
      throw new IllegalStateException(
          "bug: cannot " + transition + " from " + wire + "/" + knowledge + ": " + type().shortName() + " \"" + name
              + "\"");
    }
  }
}
