package io.jxds.toolkit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jxds.toolkit.BadInputException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConcurrentlyTest {
  @Test
  void runsTheSecondJobWhileTheFirstRuns() throws Exception {
    CountDownLatch secondStarted = new CountDownLatch(1);
    Concurrently.Both<Boolean, String> both = Concurrently.both(
        () -> await(secondStarted),
        () -> {
          secondStarted.countDown();
          return Thread.currentThread().getName();
        });
    assertThat(both.first()).as("the first job saw the second start while it ran").isTrue();
    assertThat(both.second()).isNotEqualTo(Thread.currentThread().getName());
  }

  @Test
  void givesBothValuesInOrder() throws Exception {
    assertThat(Concurrently.both(() -> "before", () -> 2)).isEqualTo(new Concurrently.Both<>("before", 2));
  }

  @Test
  void theFirstJobsFailureWinsAsInOrder() {
    CountDownLatch secondDone = new CountDownLatch(1);
    assertThatThrownBy(() -> Concurrently.both(
        () -> {
          throw new BadInputException("before.json: not JSON");
        },
        () -> {
          try {
            throw new BadInputException("after.json: not JSON");
          } finally {
            secondDone.countDown();
          }
        }))
        .isInstanceOf(BadInputException.class).hasMessage("before.json: not JSON");
    assertThat(secondDone.getCount()).as("the second job had finished when both() returned").isZero();
  }

  @Test
  void theSecondJobsFailureWhenTheFirstSucceeds() {
    assertThatThrownBy(() -> Concurrently.both(() -> "fine", () -> {
      throw new BadInputException("after.json: no such file");
    })).isInstanceOf(BadInputException.class).hasMessage("after.json: no such file");
    assertThatThrownBy(() -> Concurrently.both(() -> "fine", () -> {
      throw new IllegalStateException("a bug");
    })).isInstanceOf(IllegalStateException.class).hasMessage("a bug");
  }

  private static boolean await(CountDownLatch latch) {
    try {
      return latch.await(20, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
