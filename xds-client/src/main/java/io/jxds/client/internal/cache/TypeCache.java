package io.jxds.client.internal.cache;

import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.SynchronizationContext;
import io.grpc.SynchronizationContext.ScheduledHandle;
import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceType;
import io.jxds.client.internal.XdstpName;
import io.jxds.client.internal.cache.ResourceEntry.Wire;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The resources of one type, and what is derived from where their names are: the names on the
 * wire (a request's {@code resource_names}, sorted), the watched ones' statuses. Owned by the sync
 * context.
 *
 * <p>Entries are kept by name (a response's lookups) and in name order. The names on the wire are
 * derived from the entries, never stored beside them: the watched names, or while none is watched
 * the held one (at most one per type: ARCHITECTURE.md, "The xDS client"). When every entry is
 * watched (the usual case) they are a view of the ordered entries; otherwise a filtered list,
 * rebuilt only after a name moved on or off the wire. So an ACK of a 10 000-cluster response
 * shares the list its request was built from, and watching one more name costs one insertion.
 */
final class TypeCache<T> implements ResourceEntry.Owner {
  final ResourceType<T> type;
  private final SynchronizationContext syncContext;
  private final ScheduledExecutorService scheduler;
  private final Map<String, ResourceEntry<T>> byName = new HashMap<>();
  private final ArrayList<ResourceEntry<T>> inOrder = new ArrayList<>();
  /** The names of {@link #inOrder}, as a live view. */
  private final List<String> allNames = new Names();
  private int watched;
  /** The held entry, or null (derived: kept by {@link #wireChanged}). */
  private ResourceEntry<T> held;
  /** What {@link #wireNames()} returns; null after a name moved on or off the wire. */
  private List<String> wireNames;
  /**
   * Delta: resources a server sent for names nobody watched, kept undecoded (gRFC A46), by name; a
   * server that treats the type as a wildcard will not send them again when one is watched. Kept
   * only while the stream that sent them lives: the next stream's {@code
   * initial_resource_versions} does not name them, so that server would never send their removal.
   */
  private final Map<String, Kept> kept = new HashMap<>();
  /** Counts names going on the wire; see {@link #nextMark()}. */
  private long marks;
  /** Cached statuses() list; null after any entry changed. */
  private List<ResourceStatus> statuses;
  /** Responses of this type applied so far. */
  private long responses;
  /** The version of the last response of this type applied without error; empty before one. */
  private String acceptedVersion = "";

  TypeCache(ResourceType<T> type, SynchronizationContext syncContext, ScheduledExecutorService scheduler) {
    this.type = type;
    this.syncContext = syncContext;
    this.scheduler = scheduler;
  }

  ResourceEntry<T> get(String name) {
    return byName.get(name);
  }

  /** The entry of {@code name} if it is on the wire (watched or held), else null. */
  ResourceEntry<T> onWire(String name) {
    ResourceEntry<T> entry = byName.get(name);
    if (entry == null && XdstpName.matches(name)) {
      entry = byName.get(XdstpName.canonicalOrSelf(name, type.typeUrl())); // gRFC A47: parameters sorted
    }
    return entry != null && entry.onWire() ? entry : null;
  }

  /** Every entry, in no particular order. */
  Iterable<ResourceEntry<T>> entries() {
    return byName.values();
  }

  /** Every entry, by name. */
  List<ResourceEntry<T>> inOrder() {
    return Collections.unmodifiableList(inOrder);
  }

  /**
   * A name watched for the first time (or since it was forgotten): a new entry, WATCHED, carried by
   * {@code servers}.
   */
  ResourceEntry<T> create(String name, Servers servers) {
    ResourceEntry<T> entry = new ResourceEntry<>(name, this, servers, nextMark());
    byName.put(name, entry);
    inOrder.add(-(indexOf(name) + 1), entry);
    watched++;
    wireNames = null;
    statuses = null;
    return entry;
  }

  @Override
  public void wireChanged(ResourceEntry<?> entry, Wire from) {
    Wire to = entry.wire();
    if (from == Wire.WATCHED) {
      watched--;
    } else if (from == Wire.HELD) {
      held = null;
    }
    if (to == Wire.WATCHED) {
      watched++;
    } else if (to == Wire.HELD) {
      if (held != null) {
        throw new IllegalStateException("bug: two held names of " + type.shortName());
      }
      held = byName.get(entry.name);
    } else if (to == Wire.GONE) {
      byName.remove(entry.name);
      inOrder.remove(indexOf(entry.name));
    }
    wireNames = null;
    statuses = null;
  }

  private int indexOf(String name) {
    int lo = 0;
    int hi = inOrder.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = inOrder.get(mid).name.compareTo(name);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  @Override
  public ResourceType<T> type() {
    return type;
  }

  @Override
  public void statusChanged() {
    statuses = null;
  }

  @Override
  public long responses() {
    return responses;
  }

  @Override
  public ScheduledHandle schedule(Runnable task, long delayNanos) {
    return syncContext.schedule(task, delayNanos, TimeUnit.NANOSECONDS, scheduler);
  }

  boolean hasWatched() {
    return watched > 0;
  }

  int watchedCount() {
    return watched;
  }

  /** Whether any name of the type is on the wire. */
  boolean hasWireNames() {
    return watched > 0 || held != null;
  }

  /**
   * The names of the type on the wire, sorted: the watched ones, or while none is watched the held
   * one. A read-only view: use it before the sync context's task ends.
   */
  List<String> wireNames() {
    if (wireNames == null) {
      if (watched == 0) {
        wireNames = held == null ? List.of() : List.of(held.name);
      } else if (watched == inOrder.size()) {
        wireNames = allNames;
      } else {
        List<String> out = new ArrayList<>(watched);
        for (ResourceEntry<T> entry : inOrder) {
          if (entry.watched()) {
            out.add(entry.name);
          }
        }
        wireNames = Collections.unmodifiableList(out);
      }
    }
    return wireNames;
  }

  /** The request that stood for the held name was replaced, or its stream ended. */
  void releaseHold() {
    if (held != null) {
      held.releaseHold();
    }
  }

  /**
   * The next mark of a name going on the wire. Marks grow with each one, so a request (whose names
   * are those watched so far) carries every watched name whose mark is at most the latest mark
   * when it was written: see {@code AnsweredRequest} in the stream package.
   */
  long nextMark() {
    return ++marks;
  }

  long mark() {
    return marks;
  }

  /**
   * A delta resource sent for a name nobody watched, with the stream that sent it and whether that
   * stream has ended.
   */
  record Kept(Resource resource, StreamId stream, boolean streamEnded) {}

  void keep(Resource resource, StreamId stream) {
    kept.put(resource.getName(), new Kept(resource, stream, false));
  }

  void dropKept(String name) {
    kept.remove(name);
  }

  /** The kept resource of a name now watched, or null; it is the entry's business from now on. */
  Kept takeKept(String name) {
    return kept.isEmpty() ? null : kept.remove(name);
  }

  /**
   * A delta stream ended: what it kept stays the newest the client knows of those names (a name
   * watched before the next stream starts is served it, and that stream is told of it), until
   * another stream is ready ({@link #dropKeptOfEndedStreams}).
   */
  void keptStreamEnded(StreamId stream) {
    if (!kept.isEmpty()) {
      kept.replaceAll((name, k) -> k.stream().equals(stream) ? new Kept(k.resource(), k.stream(), true) : k);
    }
  }

  /**
   * A stream is ready: what ended streams kept for names still unwatched is dropped, since the new
   * stream's server was not told of it and would never send its change or removal.
   */
  void dropKeptOfEndedStreams() {
    if (!kept.isEmpty()) {
      kept.values().removeIf(Kept::streamEnded);
    }
  }

  /** The version of the last response of this type accepted whole (what the client ACKed). */
  String acceptedVersion() {
    return acceptedVersion;
  }

  void accepted(String version) {
    acceptedVersion = version;
  }

  void countResponse() {
    responses++;
  }

  /** The watched resources' statuses, by name; rebuilt only after an entry changed. */
  List<ResourceStatus> statuses() {
    if (statuses == null) {
      List<ResourceStatus> out = new ArrayList<>(watched);
      for (ResourceEntry<T> entry : inOrder) {
        if (entry.watched()) {
          out.add(entry.status());
        }
      }
      statuses = List.copyOf(out);
    }
    return statuses;
  }

  /**
   * The names on the wire that {@code via}'s stream carries (federation, gRFC A47: names whose
   * chain has that server active), sorted: {@link #wireNames()} filtered, built anew.
   */
  List<String> wireNames(Object via) {
    List<String> out = new ArrayList<>();
    for (ResourceEntry<T> entry : inOrder) {
      if ((watched > 0 ? entry.watched() : entry.onWire()) && entry.servers().carries(via)) {
        out.add(entry.name);
      }
    }
    return Collections.unmodifiableList(out);
  }

  /** Whether a name on the wire goes on {@code via}'s stream (see {@link #wireNames(Object)}). */
  boolean hasWireNames(Object via) {
    for (ResourceEntry<T> entry : inOrder) {
      if ((watched > 0 ? entry.watched() : entry.onWire()) && entry.servers().carries(via)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a watched name goes on {@code via}'s stream. */
  boolean hasWatched(Object via) {
    if (watched > 0) {
      for (ResourceEntry<T> entry : inOrder) {
        if (entry.watched() && entry.servers().carries(via)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The names of every entry, in order: what {@link #wireNames()} is when all are watched. */
  private final class Names extends AbstractList<String> implements RandomAccess {
    @Override
    public String get(int index) {
      return inOrder.get(index).name;
    }

    @Override
    public int size() {
      return inOrder.size();
    }
  }
}
