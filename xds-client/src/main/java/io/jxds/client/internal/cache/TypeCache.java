package io.jxds.client.internal.cache;

import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The resources of one type: the watched ones, the held ones (unwatched, still named by the last
 * request on the wire: see {@link ResourceCache}) and the retained ones (cached, unwatched, off
 * the wire). Owned by the sync context.
 */
final class TypeCache<T> {
  final ResourceType<T> type;
  // A hash map for the per-resource lookups of a response, and the subscribed names kept sorted
  // on the side (binary-search insert) so that requests and status() list them in order without
  // a sort.
  final Map<String, ResourceEntry<T>> entries = new HashMap<>();
  private final ArrayList<String> subscribedNames = new ArrayList<>();
  private final List<String> subscribedNamesView = Collections.unmodifiableList(subscribedNames);
  /**
   * The names of the request left standing when the last watched name of the type left (sorted;
   * empty when none): the server still answers it.
   */
  private List<String> heldNames = List.of();
  /**
   * Delta: resources a server sent for names nobody watched, undecoded (gRFC A46), by name; a
   * server that treats the type as a wildcard will not send them again when one is watched. Kept
   * only while the stream that sent them lives: the next stream's {@code
   * initial_resource_versions} does not name them, so that server would never send their removal.
   */
  private final Map<String, Kept> unwatched = new HashMap<>();
  /** Counts names going on the wire; see {@link #nextSubscriptionMark()}. */
  private long subscriptionMarks;
  /** Cached status() list; null after any entry changed. */
  private List<ResourceStatus> statuses;
  /** Responses of this type applied so far. */
  private long responses;
  /** The version of the last response of this type applied without error; empty before one. */
  private String acceptedVersion = "";

  TypeCache(ResourceType<T> type) {
    this.type = type;
  }

  /** The version of the last response of this type accepted whole (what the client ACKed). */
  String acceptedVersion() {
    return acceptedVersion;
  }

  void accepted(String version) {
    acceptedVersion = version;
  }

  /** A new entry whose name goes on the wire. */
  void add(ResourceEntry<T> entry) {
    entries.put(entry.name, entry);
    subscribe(entry);
  }

  /** The entry's name goes (back) on the wire. */
  void subscribe(ResourceEntry<T> entry) {
    int i = Collections.binarySearch(subscribedNames, entry.name);
    if (i < 0) {
      subscribedNames.add(-(i + 1), entry.name);
      statuses = null;
    }
  }

  /** The entry's name leaves the wire; the entry may stay, retained. */
  void unsubscribe(ResourceEntry<?> entry) {
    int i = Collections.binarySearch(subscribedNames, entry.name);
    if (i >= 0) {
      subscribedNames.remove(i);
      statuses = null;
    }
  }

  /** Forgets the entry entirely. */
  void remove(ResourceEntry<?> entry) {
    unsubscribe(entry);
    entries.remove(entry.name);
  }

  boolean hasSubscriptions() {
    return !subscribedNames.isEmpty();
  }

  /** A delta resource sent for a name nobody watched, with the stream that sent it. */
  record Kept(Resource resource, StreamId stream) {}

  void keepUnwatched(Resource resource, StreamId stream) {
    unwatched.put(resource.getName(), new Kept(resource, stream));
  }

  void dropUnwatched(String name) {
    unwatched.remove(name);
  }

  /** The kept resource of a name now watched, or null; it is the entry's business from now on. */
  Kept takeUnwatched(String name) {
    return unwatched.isEmpty() ? null : unwatched.remove(name);
  }

  /** A delta stream ended: what it sent for unwatched names is no longer known to be current. */
  void dropUnwatchedFrom(StreamId stream) {
    if (!unwatched.isEmpty()) {
      unwatched.values().removeIf(k -> k.stream().equals(stream));
    }
  }

  /**
   * The next mark of a name going on the wire. Marks grow with each one, so a request (whose
   * names are those subscribed so far) carries every name whose mark is at most the latest mark
   * when it was written: see {@link ResourceCache#subscriptionMark}.
   */
  long nextSubscriptionMark() {
    return ++subscriptionMarks;
  }

  long subscriptionMark() {
    return subscriptionMarks;
  }

  /** The last watched names left: the request naming them stays standing. */
  void hold(List<String> names) {
    heldNames = List.copyOf(names);
  }

  boolean holding() {
    return !heldNames.isEmpty();
  }

  boolean isHeld(String name) {
    return !heldNames.isEmpty() && Collections.binarySearch(heldNames, name) >= 0;
  }

  /** Ends the hold (a new request replaces it, or the stream ended); returns the names it held. */
  List<String> releaseHold() {
    List<String> out = heldNames;
    heldNames = List.of();
    return out;
  }

  /** The names the server was last asked for: the watched ones, or the held ones when none is. */
  List<String> wireNames() {
    return subscribedNames.isEmpty() ? heldNames : subscribedNamesView;
  }

  void invalidateStatuses() {
    statuses = null;
  }

  void countResponse() {
    responses++;
  }

  long responses() {
    return responses;
  }

  /** The subscribed resources' statuses, by name; rebuilt only after an entry changed. */
  List<ResourceStatus> statuses() {
    if (statuses == null) {
      List<ResourceStatus> out = new ArrayList<>(subscribedNames.size());
      for (String name : subscribedNames) {
        out.add(entries.get(name).status());
      }
      statuses = List.copyOf(out);
    }
    return statuses;
  }

  /** The subscribed names, sorted; a live read-only view: use it before the sync context task ends. */
  List<String> subscribedNames() {
    return subscribedNamesView;
  }
}
