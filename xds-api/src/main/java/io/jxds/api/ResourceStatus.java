package io.jxds.api;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One subscribed resource in an {@link XdsClientStatus} snapshot.
 *
 * @param typeUrl the resource's type URL
 * @param name the resource's name
 * @param version the version of the cached value, empty when none
 * @param state where the resource stands
 * @param lastUpdated when the cached value was last received, empty when never
 * @param lastError the last rejection or error for this resource, empty when none
 */
public record ResourceStatus(
    String typeUrl,
    String name,
    String version,
    ResourceState state,
    Optional<Instant> lastUpdated,
    Optional<String> lastError) {
  /**
   * Creates a resource's status; no component may be null.
   *
   * @param typeUrl the resource's type URL
   * @param name the resource's name
   * @param version the cached value's version, empty when none
   * @param state where the resource stands
   * @param lastUpdated when the cached value was last received
   * @param lastError the last rejection or error
   */
  public ResourceStatus {
    Objects.requireNonNull(typeUrl, "typeUrl");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(lastUpdated, "lastUpdated");
    Objects.requireNonNull(lastError, "lastError");
  }
}
