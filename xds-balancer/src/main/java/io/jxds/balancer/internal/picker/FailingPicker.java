package io.jxds.balancer.internal.picker;

import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Status;
import java.util.Objects;

/**
 * The picker of a balancer in TRANSIENT_FAILURE: every pick fails with one status. Parents read
 * {@link #status()} to name the last error in their own failure (never by picking).
 */
public final class FailingPicker extends SubchannelPicker {
  private final Status status;
  private final PickResult result;

  /** @param status not OK; jxds always uses UNAVAILABLE (gRFC A54) */
  public FailingPicker(Status status) {
    Objects.requireNonNull(status, "status");
    if (status.isOk()) {
      throw new IllegalArgumentException("a failing picker needs an error status");
    }
    this.status = status;
    this.result = PickResult.withError(status);
  }

  /** The status every pick fails with. */
  public Status status() {
    return status;
  }

  @Override
  public PickResult pickSubchannel(PickSubchannelArgs args) {
    return result;
  }

  @Override
  public String toString() {
    return "FailingPicker{" + status + "}";
  }

  /**
   * {@code "CODE: description"} of a status, for nesting one layer's error in another's text.
   */
  public static String describe(Status status) {
    String description = status.getDescription();
    if (description == null && status.getCause() != null) {
      description = status.getCause().toString();
    }
    return status.getCode() + (description == null ? "" : ": " + description);
  }
}
