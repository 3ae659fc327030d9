package io.jxds.client.cache;

import io.grpc.Status;
import io.grpc.SynchronizationContext.ScheduledHandle;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** One subscribed resource: its watchers, cached value and timers. Owned by the sync context. */
final class ResourceEntry<T> {
  final TypeCache<T> owner;
  final ResourceType<T> type;
  final String name;
  final List<WatcherRegistration<T>> watchers = new ArrayList<>(1);

  T value;
  /** Version of {@link #value}; empty when none. */
  String version = "";
  ResourceState state = ResourceState.REQUESTED;
  /** The control plane said it does not exist (timer or SotW deletion). */
  boolean absent;
  Instant lastUpdated;
  /** Per-resource error text for status(), null when none. */
  String lastError;
  /** The error a new watcher of a resource without a value is told, null when none. */
  Status lastErrorStatus;
  ScheduledHandle doesNotExistTimer;
  ScheduledHandle retentionTimer;
  /**
   * Set when the cached value was missing from a stream's first state-of-the-world response: the
   * deletion is postponed, not dropped. The next response of the type decides; if none comes
   * within the resource timeout this timer concludes the deletion.
   */
  ScheduledHandle pendingDeletionTimer;
  /** gRFC A53: a deletion was ignored and not yet followed by the resource coming back. */
  boolean deletionIgnored;
  /** The response sequence number in which the resource last appeared (for SotW absence). */
  long seenInResponse;
  /** Cached status() entry; null when stale. */
  ResourceStatus status;

  ResourceEntry(TypeCache<T> owner, String name) {
    this.owner = owner;
    this.type = owner.type;
    this.name = name;
  }

  /** Something status() shows changed. */
  void invalidateStatus() {
    status = null;
    owner.statuses = null;
  }

  /** A value or a known absence: what stops and prevents the does-not-exist timer. */
  boolean hasResult() {
    return value != null || absent;
  }

  void cancelDoesNotExistTimer() {
    if (doesNotExistTimer != null) {
      doesNotExistTimer.cancel();
      doesNotExistTimer = null;
    }
  }

  void cancelPendingDeletion() {
    if (pendingDeletionTimer != null) {
      pendingDeletionTimer.cancel();
      pendingDeletionTimer = null;
    }
  }

  void cancelRetentionTimer() {
    if (retentionTimer != null) {
      retentionTimer.cancel();
      retentionTimer = null;
    }
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
              Optional.ofNullable(lastError));
    }
    return status;
  }
}
