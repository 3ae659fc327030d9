package io.jxds.toolkit.internal;

import io.jxds.toolkit.BadInputException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Two independent jobs at once (a diff's two snapshots, each read and planned): the second on a
 * thread of its own, the first on the caller's. The answer is what running them one after the other
 * would give: both values, or the first's failure, else the second's. Both have ended when it
 * returns.
 */
public final class Concurrently {
  /** A job that may find bad input. */
  public interface Job<T> {
    T call() throws BadInputException;
  }

  /** The two values. */
  public record Both<A, B>(A first, B second) {}

  private Concurrently() {}

  /** Runs both and waits for both. */
  public static <A, B> Both<A, B> both(Job<A> first, Job<B> second) throws BadInputException {
    FutureTask<B> later = new FutureTask<>(second::call);
    Thread thread = new Thread(later, "jxds-second-job");
    thread.setDaemon(true);
    thread.start();
    A a = null;
    Throwable failure = null;
    try {
      a = first.call();
    } catch (BadInputException | RuntimeException | Error e) {
      failure = e;
    }
    B b = null;
    try {
      b = awaitUninterruptibly(later);
    } catch (ExecutionException e) {
      failure = failure != null ? failure : e.getCause();
    }
    if (failure instanceof BadInputException bad) {
      throw bad;
    }
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (failure instanceof Error error) {
      throw error;
    }
    if (failure != null) {
      throw new IllegalStateException(failure); // a Job throws nothing else
    }
    return new Both<>(a, b);
  }

  private static <T> T awaitUninterruptibly(FutureTask<T> task) throws ExecutionException {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return task.get();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
