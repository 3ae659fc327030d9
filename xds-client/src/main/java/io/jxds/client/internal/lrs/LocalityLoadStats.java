package io.jxds.client.internal.lrs;

import io.jxds.api.model.LocalityId;
import java.util.concurrent.atomic.LongAdder;

/**
 * The RPCs of one (cluster, EDS service name, locality), counted from RPC threads for load
 * reports ({@code UpstreamLocalityStats}). The counters only grow (in progress aside): a report
 * sends what grew since the last one, so a count is never lost or sent twice, whichever picker
 * recorded it and whenever the report runs.
 */
public final class LocalityLoadStats {
  private final LocalityId locality;
  private final LongAdder issued = new LongAdder();
  private final LongAdder succeeded = new LongAdder();
  private final LongAdder errored = new LongAdder();
  private final LongAdder inProgress = new LongAdder();

  LocalityLoadStats(LocalityId locality) {
    this.locality = locality;
  }

  /** The locality counted. */
  public LocalityId locality() {
    return locality;
  }

  /** A stream to an endpoint of this locality started: issued and in progress. */
  public void callStarted() {
    issued.increment();
    inProgress.increment();
  }

  /**
   * That stream ended.
   *
   * @param ok whether it ended with status OK (else it counts as an error)
   */
  public void callFinished(boolean ok) {
    inProgress.decrement();
    (ok ? succeeded : errored).increment();
  }

  /** Streams started so far. */
  public long issued() {
    return issued.sum();
  }

  /** Streams ended with OK so far. */
  public long succeeded() {
    return succeeded.sum();
  }

  /** Streams ended with another status so far. */
  public long errored() {
    return errored.sum();
  }

  /** Streams open now. */
  public long inProgress() {
    return inProgress.sum();
  }
}
