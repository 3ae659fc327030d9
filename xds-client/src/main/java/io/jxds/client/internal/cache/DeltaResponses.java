package io.jxds.client.internal.cache;

import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Delta xDS's rules (the xDS protocol's "Incremental xDS"; ARCHITECTURE.md, "The xDS client",
 * "Delta"): each resource carries its own version; a name left out of a response is unchanged;
 * {@code removed_resources} deletes, for every type, whether the name is watched, held or
 * retained (a wildcard server tells a client that holds a value unwatched, and says nothing more
 * when the name is watched again).
 *
 * <p>A server that treats a type as a wildcard (java-control-plane: Cluster, Listener) believes the
 * client holds what it sent and will not resend it when the name is watched later: such resources
 * are kept undecoded (gRFC A46: not validated) and applied when watched. A value is current only
 * while the stream that sent it, or one told of it in {@code initial_resource_versions}, lives:
 * that stream vouches for it (ARCHITECTURE.md, "Glossary"), and would send its change or removal.
 * When the stream ends, what it sent for unwatched names is still the newest the client knows: a
 * name watched before another stream is ready is served it (and the next stream of that server is
 * told of it in {@code initial_resource_versions}); what is still unwatched when another stream is
 * ready is dropped. A retained value watched again must be sent again (see {@link AbsenceRules}).
 */
final class DeltaResponses {
  private final Clock clock;
  /** Numbers the next response (the cache's count, shared with state of the world). */
  private final LongSupplier nextSequence;
  private final WatcherDelivery delivery;
  private final AbsenceRules absence;

  DeltaResponses(Clock clock, LongSupplier nextSequence, WatcherDelivery delivery, AbsenceRules absence) {
    this.clock = clock;
    this.nextSequence = nextSequence;
    this.delivery = delivery;
    this.absence = absence;
  }

  /**
   * Applies a response that came on {@code stream}; the result says ACK or NACK. {@code via}: its
   * controller when streams carry different names (federation, gRFC A47), else null: what it
   * sends or removes of a name it does not carry (another authority's) is ignored.
   */
  <T> AppliedResponse apply(
      TypeCache<T> t, DeltaDiscoveryResponse response, StreamId stream, Object via, CallbackTracker tracker) {
    t.countResponse();
    AppliedResponse applied =
        new AppliedResponse(nextSequence.getAsLong(), clock.instant(), tracker, stream, delivery, via);
    List<Resource> resources = response.getResourcesList();
    for (int i = 0; i < resources.size(); i++) {
      Resource resource = resources.get(i);
      if (!resource.hasResource()) {
        continue; // a TTL refresh (Resource.ttl): nothing changed
      }
      if (!resource.getName().isEmpty() && t.onWire(resource.getName()) == null) {
        t.keep(resource, stream); // gRFC A46: not validated, but kept for the watch to come
        continue;
      }
      applied.apply(t, resource.getResource(), i, resource.getVersion());
    }
    for (String name : response.getRemovedResourcesList()) {
      t.dropKept(name);
      ResourceEntry<T> entry = t.get(name);
      if (entry != null && (via == null || entry.servers().carries(via))) {
        absence.deleted(entry, tracker);
      }
    }
    return applied;
  }

  /**
   * {@code name} is watched now: a resource kept for it is applied. Returns whether that told the
   * watchers an update (a rejected one told them an error only).
   */
  <T> boolean applyKept(TypeCache<T> t, String name) {
    TypeCache.Kept kept = t.takeKept(name);
    if (kept == null) {
      return false;
    }
    int queued = delivery.pendingCount();
    AppliedResponse applied =
        new AppliedResponse(nextSequence.getAsLong(), clock.instant(), null, kept.stream(), delivery);
    applied.apply(t, kept.resource().getResource(), 0, kept.resource().getVersion());
    ResourceEntry<T> entry = t.get(name);
    if (kept.streamEnded() && entry != null) {
      entry.streamEnded(kept.stream()); // the stream that sent it is gone: it vouches for nothing now
    }
    return applied.valid() > 0 && delivery.pendingCount() > queued;
  }

  /** A stream is ready: what ended streams sent for names still unwatched is dropped. */
  void streamReady(TypeCache<?> t) {
    t.dropKeptOfEndedStreams();
  }

  /**
   * The version of every watched name of the type whose value came from {@code stream}'s server
   * (a version from another server means nothing to this one), for the stream's {@code
   * initial_resource_versions}. Told so, {@code stream} vouches for each.
   */
  Map<String, String> cachedVersions(TypeCache<?> t, StreamId stream, Object via) {
    Map<String, String> out = new HashMap<>();
    for (ResourceEntry<?> entry : t.inOrder()) {
      if (entry.watched() && entry.value() != null && !entry.version().isEmpty()
          && stream.server().equals(entry.source()) && (via == null || entry.servers().carries(via))) {
        out.put(entry.name, entry.version());
        entry.vouchedBy(stream);
      }
    }
    return out;
  }

  /**
   * {@code stream} ended: the values it vouched for are vouched for no more (the next stream's
   * {@code initial_resource_versions} names only watched values, so its server would not send the
   * removal of the others), and what it sent for names nobody watches is kept until another stream
   * is ready ({@link #streamReady}).
   */
  void streamEnded(TypeCache<?> t, StreamId stream) {
    t.keptStreamEnded(stream);
    for (ResourceEntry<?> entry : t.entries()) {
      entry.streamEnded(stream);
    }
  }
}
