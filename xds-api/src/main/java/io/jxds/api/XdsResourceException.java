package io.jxds.api;

import org.jspecify.annotations.Nullable;

/**
 * A resource from the control plane that jxds rejects: it cannot be decoded, or it breaks a
 * validation rule. The message names the resource (when known), the offending field and its value,
 * for example {@code cluster "payments": eds_cluster_config.eds_config must be ads or self, got
 * path}; the client puts it into the NACK's {@code error_detail} as it is.
 */
public final class XdsResourceException extends Exception {
  private static final long serialVersionUID = 1L;

  /** The rejected resource's name, if it could be read. */
  private final @Nullable String resourceName;

  /**
   * Creates the exception.
   *
   * @param resourceName the rejected resource's name, if it could be read
   * @param message the complete message, naming the resource, the field and the value
   */
  public XdsResourceException(@Nullable String resourceName, String message) {
    super(message);
    this.resourceName = resourceName;
  }

  /**
   * The same, with the underlying failure (for example a protobuf parse error) as the cause.
   *
   * @param resourceName the rejected resource's name, if it could be read
   * @param message the complete message, naming the resource, the field and the value
   * @param cause the underlying failure
   */
  public XdsResourceException(@Nullable String resourceName, String message, Throwable cause) {
    super(message, cause);
    this.resourceName = resourceName;
  }

  /**
   * The rejected resource's name.
   *
   * @return the name; null when the resource could not be read far enough
   */
  public @Nullable String resourceName() {
    return resourceName;
  }
}
