package io.jxds.toolkit;

import java.util.Objects;

/**
 * A field a resource sets that gRPC clients do not read: the control plane may believe it does
 * something, but a gRPC client behaves as if it were unset.
 *
 * @param field the field's path in the resource, e.g. {@code health_checks} or
 *     {@code endpoints[0].lb_endpoints[2].endpoint.health_check_config} (the first place it is set)
 * @param occurrences how many times it is set in the resource (a repeated path counts each)
 * @param reason why gRPC ignores it
 */
public record IgnoredField(String field, int occurrences, String reason) {
  /**
   * Checks the components.
   *
   * @param field the field's path
   * @param occurrences at least 1
   * @param reason why it is ignored
   */
  public IgnoredField {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(reason, "reason");
  }

  @Override
  public String toString() {
    return field + (occurrences > 1 ? " (and " + (occurrences - 1) + " more)" : "") + ": " + reason;
  }
}
