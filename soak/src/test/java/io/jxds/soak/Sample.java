package io.jxds.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The first {@code wanted} RPCs of one channel that started after {@code startNanos}. */
final class Sample {
  private final long startNanos;
  private final int wanted;
  private final List<RpcResult> results = new ArrayList<>();
  private final CountDownLatch full = new CountDownLatch(1);

  Sample(long startNanos, int wanted) {
    this.startNanos = startNanos;
    this.wanted = wanted;
  }

  void offer(RpcResult r) {
    if (r.startNanos() < startNanos) {
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
