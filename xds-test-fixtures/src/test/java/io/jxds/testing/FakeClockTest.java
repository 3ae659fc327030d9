package io.jxds.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FakeClockTest {
  private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final List<String> ran = new ArrayList<>();

  @Test
  void nothingRunsUntilTimeIsForwarded() {
    clock.schedule(() -> ran.add("a"), 1, TimeUnit.SECONDS);
    clock.execute(() -> ran.add("now"));

    assertThat(ran).isEmpty();
    assertThat(clock.numPendingTasks()).isEqualTo(2);
  }

  @Test
  void forwardTimeRunsDueTasksInDueOrderThenSubmissionOrder() {
    clock.schedule(() -> ran.add("b@2s"), 2, TimeUnit.SECONDS);
    clock.schedule(() -> ran.add("a@1s"), 1, TimeUnit.SECONDS);
    clock.schedule(() -> ran.add("c@2s"), 2, TimeUnit.SECONDS);
    clock.schedule(() -> ran.add("d@3s"), 3, TimeUnit.SECONDS);

    int count = clock.forwardTime(2, TimeUnit.SECONDS);

    assertThat(count).isEqualTo(3);
    assertThat(ran).containsExactly("a@1s", "b@2s", "c@2s");
    assertThat(clock.nanosUntilNextTask()).isEqualTo(TimeUnit.SECONDS.toNanos(1));
  }

  @Test
  void taskScheduledByATaskRunsInTheSameWindowWhenDue() {
    clock.schedule(() -> {
      ran.add("first");
      clock.schedule(() -> ran.add("second"), 500, TimeUnit.MILLISECONDS);
    }, 1, TimeUnit.SECONDS);

    clock.forwardTime(2, TimeUnit.SECONDS);

    assertThat(ran).containsExactly("first", "second");
  }

  @Test
  void tasksSeeTheirOwnDueTimeWhileRunning() {
    List<Long> seen = new ArrayList<>();
    clock.schedule(() -> seen.add(clock.nanoTime()), 1, TimeUnit.SECONDS);

    clock.forwardTime(5, TimeUnit.SECONDS);

    assertThat(seen).containsExactly(TimeUnit.SECONDS.toNanos(1));
    assertThat(clock.nanoTime()).isEqualTo(TimeUnit.SECONDS.toNanos(5));
  }

  @Test
  void cancelledTaskNeverRuns() {
    ScheduledFuture<?> f = clock.schedule(() -> ran.add("x"), 1, TimeUnit.SECONDS);

    assertThat(f.cancel(false)).isTrue();
    clock.forwardTime(1, TimeUnit.SECONDS);

    assertThat(ran).isEmpty();
    assertThat(f.isCancelled()).isTrue();
    assertThat(clock.numPendingTasks()).isZero();
  }

  @Test
  void repeatingTaskRunsOncePerPeriod() {
    clock.scheduleAtFixedRate(() -> ran.add("tick"), 1, 1, TimeUnit.SECONDS);

    clock.forwardTime(3500, TimeUnit.MILLISECONDS);

    assertThat(ran).hasSize(3);
  }

  @Test
  void clockViewFollowsManualTime() {
    clock.forwardTime(90, TimeUnit.SECONDS);

    assertThat(clock.clock().instant()).isEqualTo(Instant.parse("2026-01-01T00:01:30Z"));
  }

  @Test
  void delayReflectsRemainingTime() {
    ScheduledFuture<?> f = clock.schedule(() -> {}, 10, TimeUnit.SECONDS);
    clock.forwardTime(4, TimeUnit.SECONDS);

    assertThat(f.getDelay(TimeUnit.SECONDS)).isEqualTo(6);
  }

  @Test
  void timeNeverMovesBackward() {
    assertThatThrownBy(() -> clock.forwardTime(-1, TimeUnit.SECONDS))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
