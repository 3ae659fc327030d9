package io.jxds.client.internal.cache;

import io.jxds.client.internal.DurationFormat;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the cache concludes that a resource does not exist (ARCHITECTURE.md, "The xDS client",
 * "Timers"):
 * <ul>
 *   <li>Does-not-exist timer (the resource timeout): armed for a watched name awaiting its answer
 *       once its request is on a ready stream; stopped by an answer, the last cancel or a stream
 *       close (gRFC A57). When it fires, a name that knows nothing does not exist; a cached name
 *       watched again ends its re-watch window (below).
 *   <li>State of the world ({@code ResourceType.absenceMeansDeletion()}): a name with nothing
 *       cached that is missing from the response answering the request naming it does not exist
 *       (which response answers which request: {@code AnsweredRequest}, in the stream package). A
 *       name with a value missing from a response was deleted, unless it awaits its answer (too
 *       early to tell), the response holds an {@code Any} whose name cannot be read (it may be the
 *       missing one), or it is the stream's first response of the type (a restarted control plane
 *       may not have its whole state yet). In that last case the deletion is postponed, not
 *       dropped: it is concluded once the name has been missing for the resource timeout, counted
 *       from when it was first seen missing (across streams), by a timer or by the next response
 *       that still lacks it.
 *   <li>gRFC A53: with the {@code ignore_resource_deletion} of the server serving the name's chain,
 *       a deletion of a value is ignored, with one warning; the value stays.
 *   <li>Delta: {@code removed_resources} is a deletion, on the wire or retained.
 * </ul>
 */
final class AbsenceRules {
  private static final Logger log = LoggerFactory.getLogger(AbsenceRules.class);

  private final Duration resourceTimeout;
  /** Monotonic nanoseconds: how long a deletion has been postponed. */
  private final LongSupplier nanoTicker;
  private final WatcherDelivery delivery;

  /**
   * Whether the serving stream speaks state of the world and whether the serving server has
   * {@code ignore_resource_deletion} (gRFC A53) are asked of each name's own chain.
   */
  AbsenceRules(Duration resourceTimeout, LongSupplier nanoTicker, WatcherDelivery delivery) {
    this.resourceTimeout = resourceTimeout;
    this.nanoTicker = nanoTicker;
    this.delivery = delivery;
  }

  /**
   * The names on the wire that a state-of-the-world response left out.
   *
   * @param firstOfTypeOnStream the stream's first response of the type: it deletes no cached
   *     value yet
   * @param answeredMark the response answers a request that named every watched name whose wire
   *     mark is at most this; -1 when it may answer none (a new version pushed before the server
   *     saw the request)
   * @param via the responding stream's controller when streams carry different names (federation,
   *     gRFC A47), else null: the response covers only the names that stream requested
   */
  <T> void afterStateOfTheWorld(TypeCache<T> t, AppliedResponse response, String version,
      boolean firstOfTypeOnStream, long answeredMark, CallbackTracker tracker, Object via) {
    for (ResourceEntry<T> entry : t.entries()) {
      if (!entry.onWire()) {
        continue; // retained off the wire: the response does not cover it
      }
      if (via != null && !entry.servers().carries(via)) {
        continue; // another authority's name, not requested on this stream
      }
      if (entry.wasSeenIn(response.sequence)) {
        entry.cancelPostponedDeletion(); // it is back
      } else if (response.unnamedFailure()) {
        continue; // the unreadable resource may be this one
      } else if (!entry.cached() && entry.watched() && entry.wireMark() <= answeredMark) {
        // Nothing cached, and this is the answer to a request naming it: it does not exist now
        // (waiting out the timer, or the postponement of a first response, protects only values
        // the client already had).
        String why = "not in the control plane's answer to the request naming it (version \"" + version + "\")";
        log.info("{} resource \"{}\" does not exist: {}", entry.type().shortName(), entry.name, why);
        markAbsent(entry, why, false, tracker);
      } else if (entry.hasDoesNotExistTimer() || entry.awaitingAnswer()) {
        // Absence proves nothing yet; a postponed deletion keeps waiting. A name awaiting its
        // answer is either on the wire with its does-not-exist timer running (the response may
        // answer an earlier request, or be a push the server sent before it saw the request) or
        // not sent at all: requests wait for the end of the turn, and a response handled before
        // then answers a request that did not name it.
        continue;
      } else if (firstOfTypeOnStream) {
        postponeDeletion(entry, tracker);
      } else {
        deleted(entry, tracker);
      }
    }
  }

  /**
   * A cached name missing from a stream's first response: a control plane that just restarted may
   * answer before it has its whole state, so the deletion waits. It is concluded once the name
   * has been missing for the resource timeout, counted from the first response that lacked it, on
   * whichever stream: by this response if that time is already up (streams recycled faster than
   * the timeout must not keep a deleted cluster forever), else by a timer for the time left or
   * the next non-first response that still lacks it.
   */
  private <T> void postponeDeletion(ResourceEntry<T> entry, CallbackTracker tracker) {
    if (entry.value() == null) {
      return; // nothing cached to delete; the next response decides
    }
    long left = resourceTimeout.toNanos() - entry.postponeDeletion(nanoTicker.getAsLong());
    if (left <= 0) {
      log.debug("{} resource \"{}\" missing for the resource timeout across streams; concluding its deletion",
          entry.type().shortName(), entry.name);
      deleted(entry, tracker);
      return;
    }
    if (entry.hasDeletionTimer()) {
      return;
    }
    log.debug("{} resource \"{}\" missing from the first response on a new stream; deletion postponed",
        entry.type().shortName(), entry.name);
    entry.armDeletionTimer(left, () -> {
      if (entry.deletionPostponed() && entry.onWire()) {
        deleted(entry, null);
        delivery.dispatch();
      }
    });
  }

  /** The control plane deleted it (gRFC A53: unless deletions of a value are ignored). */
  <T> void deleted(ResourceEntry<T> entry, CallbackTracker tracker) {
    entry.cancelPostponedDeletion();
    if (entry.absent()) {
      return;
    }
    if (entry.value() != null && entry.servers().ignoreResourceDeletion()) {
      if (entry.ignoreDeletion()) {
        log.warn(
            "{} resource \"{}\" left out of a response; keeping it because the server has ignore_resource_deletion",
            entry.type().shortName(), entry.name);
      }
      return;
    }
    if (entry.value() != null) {
      log.info("{} resource \"{}\" deleted by the control plane", entry.type().shortName(), entry.name);
    }
    markAbsent(entry, "deleted by the control plane", false, tracker);
  }

  /** {@code timedOut}: concluded by a timer, not by the control plane (CSDS TIMEOUT, gRFC A40). */
  private <T> void markAbsent(ResourceEntry<T> entry, String why, boolean timedOut, CallbackTracker tracker) {
    entry.markAbsent(why, timedOut);
    delivery.tellAbsent(entry, tracker);
  }

  /**
   * Arms the does-not-exist timer of a watched name awaiting its answer, unless one runs. A name
   * with a NACK has its answer (its error): watching another name of the type must not later tell
   * its watchers it does not exist.
   */
  void armDoesNotExistTimer(ResourceEntry<?> entry) {
    if (entry.watched() && entry.awaitingAnswer() && !entry.hasDoesNotExistTimer()) {
      entry.armDoesNotExistTimer(resourceTimeout.toNanos(), () -> doesNotExistTimerFired(entry));
    }
  }

  private <T> void doesNotExistTimerFired(ResourceEntry<T> entry) {
    if (!entry.awaitingAnswer()) {
      return;
    }
    if (entry.cached()) {
      rewatchWindowOver(entry);
      return;
    }
    String why = "not received within " + DurationFormat.format(resourceTimeout);
    if (!entry.responseSinceTimerArmed()) {
      why += ": no " + entry.type().shortName() + " response at all since it was requested (some control planes,"
          + " java-control-plane in ADS mode among them, hold back a type's whole response while any"
          + " requested name is missing)";
    }
    log.info("{} resource \"{}\" does not exist: {}", entry.type().shortName(), entry.name, why);
    markAbsent(entry, why, true, null);
    delivery.dispatch();
  }

  /**
   * Watched again with a retained value (or absence) that no response has confirmed yet:
   * the window in which a response may predate the request is over. A server answers a request
   * that adds a name, so responses of the type that came in the window and all lacked it mean it
   * was deleted while nobody watched it; no response at all means the server believes the client
   * holds it (java-control-plane), and the value stays. From now on a state-of-the-world response
   * that lacks the name counts as its deletion.
   */
  private <T> void rewatchWindowOver(ResourceEntry<T> entry) {
    entry.closeRewatchWindow();
    boolean sotw = entry.servers().stateOfTheWorld();
    if (entry.value() != null && entry.type().absenceMeansDeletion() && sotw && entry.responseSinceTimerArmed()) {
      deleted(entry, null);
      delivery.dispatch();
      return;
    }
    // Delta: a value whose stream has ended was requested again from a server that was not told
    // the client holds it; a server that has it sends it. (A live stream that vouches for it
    // would have sent its change or removal: silence there means unchanged.)
    if (entry.value() != null && !sotw && !entry.vouched()) {
      String why = "not sent again within " + DurationFormat.format(resourceTimeout)
          + " of being requested on a new stream";
      log.info("{} resource \"{}\" no longer exists: {}", entry.type().shortName(), entry.name, why);
      markAbsent(entry, why, true, null);
      delivery.dispatch();
      return;
    }
    log.debug("{} resource \"{}\" not confirmed within {}; keeping its cached value", entry.type().shortName(),
        entry.name, DurationFormat.format(resourceTimeout));
  }
}
