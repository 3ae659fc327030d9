package io.jxds.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The first {@code wanted} RPCs issued on one channel from its RPC number {@code firstSeq} on, in
 * the order they were issued, not finished: on a loaded machine the RPCs to a busy backend finish
 * later, and a sample of the first to finish would under-count it.
 */
final class Sample {
  /** Long.MAX_VALUE until {@link #begin}: set up first, so that no RPC of the sample finishes unseen. */
  private volatile long firstSeq = Long.MAX_VALUE;
  private final int wanted;
  private final List<RpcResult> results = new ArrayList<>();
  private final CountDownLatch full = new CountDownLatch(1);

  Sample(int wanted) {
    this.wanted = wanted;
  }

  /** The sample is the RPCs issued from {@code seq} on; called after it is where the channel's results go. */
  void begin(long seq) {
    firstSeq = seq;
  }

  void offer(RpcResult r) {
    long firstSeq = this.firstSeq;
    if (r.seq() < firstSeq || r.seq() >= firstSeq + wanted) {
      return;
    }
    synchronized (results) {
      if (results.size() < wanted) {
        results.add(r);
        if (results.size() == wanted) {
          full.countDown();
        }
      }
    }
  }

  boolean await(long deadlineNanos) throws InterruptedException {
    return full.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
  }

  List<RpcResult> results() {
    synchronized (results) {
      return List.copyOf(results);
    }
  }

  int size() {
    synchronized (results) {
      return results.size();
    }
  }
}
