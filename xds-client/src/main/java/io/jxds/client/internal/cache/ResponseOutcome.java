package io.jxds.client.internal.cache;

import java.util.List;

/**
 * What applying one response decided: ACK when {@link #errors()} is empty, otherwise NACK with one
 * line per rejected resource (gRFC A46: the valid resources were applied anyway).
 */
public record ResponseOutcome(List<String> errors) {
  public static final ResponseOutcome ACCEPTED = new ResponseOutcome(List.of());

  public ResponseOutcome {
    errors = List.copyOf(errors);
  }

  public boolean accepted() {
    return errors.isEmpty();
  }

  /** The NACK's {@code error_detail.message}: the errors joined by newlines. */
  public String errorDetail() {
    return String.join("\n", errors);
  }
}
