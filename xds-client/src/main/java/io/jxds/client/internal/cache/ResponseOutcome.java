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

  /**
   * The NACK line of a resource whose {@code Any} cannot be unpacked (wrong type URL, bytes that do
   * not parse): it names the resource by its index in the response, as its name may be unknown.
   * Public for the control-plane toolkit, which reports the same line.
   */
  public static String unreadable(String shortName, int index, String message) {
    return shortName + " resource index " + index + ": " + message;
  }

  /** The NACK's {@code error_detail.message}: the errors joined by newlines. */
  public String errorDetail() {
    return String.join("\n", errors);
  }
}
