package io.jxds.client.internal.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.jxds.api.ResourceWatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WatcherRegistrationTest {
  /** Records values and fails if two callbacks ever overlap. */
  private static final class Ordered implements ResourceWatcher<Integer> {
    final List<Integer> seen = new ArrayList<>();
    final AtomicInteger inside = new AtomicInteger();
    volatile boolean overlapped;

    @Override
    public void onUpdate(Integer value) {
      if (inside.incrementAndGet() != 1) {
        overlapped = true;
      }
      synchronized (seen) {
        seen.add(value);
      }
      Thread.yield();
      inside.decrementAndGet();
    }

    @Override
    public void onResourceDoesNotExist(String resourceName) {}

    @Override
    public void onError(Status error) {}
  }

  @Test
  void callbacksRunOneAtATimeInOrderOnAThreadPool() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      Ordered watcher = new Ordered();
      WatcherRegistration<Integer> r = new WatcherRegistration<>(watcher, pool);
      int n = 20_000;
      CountDownLatch done = new CountDownLatch(1);
      CallbackTracker tracker = new CallbackTracker(done::countDown);
      for (int i = 0; i < n; i++) {
        int v = i;
        r.deliver(w -> w.onUpdate(v), tracker);
        if (i % 1000 == 0) {
          Thread.sleep(1); // let the pool go idle now and then, to use the fast path too
        }
      }
      tracker.finish();
      assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(watcher.overlapped).isFalse();
      synchronized (watcher.seen) {
        assertThat(watcher.seen).hasSize(n);
        for (int i = 0; i < n; i++) {
          assertThat(watcher.seen.get(i)).isEqualTo(i);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void cancelledRegistrationRunsNothingMoreButReleasesTheTracker() {
    List<Runnable> queued = new ArrayList<>();
    Ordered watcher = new Ordered();
    WatcherRegistration<Integer> r = new WatcherRegistration<>(watcher, queued::add);
    AtomicInteger done = new AtomicInteger();
    CallbackTracker tracker = new CallbackTracker(done::incrementAndGet);
    r.deliver(w -> w.onUpdate(1), tracker);
    r.deliver(w -> w.onUpdate(2), tracker);
    tracker.finish();
    assertThat(r.cancel()).isTrue();
    assertThat(r.cancel()).isFalse();
    queued.forEach(Runnable::run);
    assertThat(watcher.seen).isEmpty();
    assertThat(done.get()).isEqualTo(1);
  }

  @Test
  void cancelReleasesCallbacksAnExecutorDroppedAndEachOnlyOnce() {
    List<Runnable> dropped = new ArrayList<>();
    Ordered watcher = new Ordered();
    WatcherRegistration<Integer> r = new WatcherRegistration<>(watcher, dropped::add);
    AtomicInteger done = new AtomicInteger();
    CallbackTracker first = new CallbackTracker(done::incrementAndGet);
    r.deliver(w -> w.onUpdate(1), first); // fast path: handed to the executor
    r.deliver(w -> w.onUpdate(2), first); // queued behind it
    first.finish();
    CallbackTracker second = new CallbackTracker(done::incrementAndGet);
    r.deliver(w -> w.onUpdate(3), second);
    second.finish();
    assertThat(done.get()).isZero();

    r.cancel();
    assertThat(done.get()).isEqualTo(2);
    dropped.forEach(Runnable::run); // a late run must not end any count twice
    r.cancel();
    assertThat(done.get()).isEqualTo(2);
    assertThat(watcher.seen).isEmpty();
  }
}
