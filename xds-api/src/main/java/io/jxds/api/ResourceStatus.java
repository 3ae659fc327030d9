package io.jxds.api;

import com.google.protobuf.Any;
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
 * @param rawResource the cached value as the control plane sent it (the response's own {@code Any},
 *     shared, not copied), empty when none
 * @param rejectedVersion the version of the last response that rejected this resource (NACK),
 *     empty when it was never rejected or a valid version replaced the rejected one
 * @param lastRejected when that rejection happened, empty when {@code rejectedVersion} is
 */
public record ResourceStatus(
    String typeUrl,
    String name,
    String version,
    ResourceState state,
    Optional<Instant> lastUpdated,
    Optional<String> lastError,
    Optional<Any> rawResource,
    Optional<String> rejectedVersion,
    Optional<Instant> lastRejected) {
  /**
   * Creates a resource's status; no component may be null.
   *
   * @param typeUrl the resource's type URL
   * @param name the resource's name
   * @param version the cached value's version, empty when none
   * @param state where the resource stands
   * @param lastUpdated when the cached value was last received
   * @param lastError the last rejection or error
   * @param rawResource the cached resource as the control plane sent it (for CSDS), when any
   * @param rejectedVersion the version of the last NACKed response for this resource, when any
   * @param lastRejected when that response was NACKed
   * @throws NullPointerException if a component is null
   */
  public ResourceStatus {
    Objects.requireNonNull(typeUrl, "typeUrl");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(lastUpdated, "lastUpdated");
    Objects.requireNonNull(lastError, "lastError");
    Objects.requireNonNull(rawResource, "rawResource");
    Objects.requireNonNull(rejectedVersion, "rejectedVersion");
    Objects.requireNonNull(lastRejected, "lastRejected");
  }

  /**
   * A status without the raw resource or rejection details (what a client that keeps no bytes,
   * such as a test double, reports).
   *
   * @param typeUrl the resource's type URL
   * @param name the resource's name
   * @param version the version of the cached value, empty when none
   * @param state where the resource stands
   * @param lastUpdated when the cached value was last received, empty when never
   * @param lastError the last rejection or error for this resource, empty when none
   */
  public ResourceStatus(
      String typeUrl,
      String name,
      String version,
      ResourceState state,
      Optional<Instant> lastUpdated,
      Optional<String> lastError) {
    this(typeUrl, name, version, state, lastUpdated, lastError, Optional.empty(), Optional.empty(),
        Optional.empty());
  }
}
