package io.jxds.testing;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Failures inside a {@link FakeAdsServer} (never expected): nothing is thrown into gRPC's threads,
 * everything lands here, and {@link FakeAdsServerExtension} and {@link XdsTestBed} turn it into a
 * test failure. Thread-safe.
 */
final class UnexpectedErrors {
  private static final Logger logger = LoggerFactory.getLogger(UnexpectedErrors.class);

  private final List<Throwable> errors = new ArrayList<>(); // guarded by monitor
  private final Monitor monitor;

  UnexpectedErrors(Monitor monitor) {
    this.monitor = monitor;
  }

  void record(Throwable t) {
    monitor.run(() -> {
      errors.add(t);
      monitor.changed();
    });
    logger.debug("FakeAdsServer internal failure", t);
  }

  /** The failures so far, oldest first. */
  List<Throwable> snapshot() {
    return monitor.get(() -> List.copyOf(errors));
  }

  /**
   * Fails a test whose server saw {@code errors}: an {@link AssertionError} caused by the first,
   * the others suppressed; nothing when there are none.
   *
   * @throws AssertionError if {@code errors} is not empty
   */
  static void assertNone(List<Throwable> errors) {
    if (!errors.isEmpty()) {
      AssertionError failure =
          new AssertionError("FakeAdsServer saw " + errors.size() + " unexpected error(s)", errors.get(0));
      errors.stream().skip(1).forEach(failure::addSuppressed);
      throw failure;
    }
  }
}
