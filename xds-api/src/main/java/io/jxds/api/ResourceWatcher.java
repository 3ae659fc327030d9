package io.jxds.api;

import io.grpc.Status;

/**
 * Receives one resource's changes from an {@link XdsClient}. Callbacks arrive on the executor the
 * watcher was registered with, one at a time and in order.
 *
 * @param <T> the resource's model type
 */
public interface ResourceWatcher<T> {
  /**
   * The resource has a new value (called only when it differs from the last one delivered).
   *
   * @param value the resource's new, validated value
   */
  void onUpdate(T value);

  /**
   * The control plane says the resource does not exist: it never arrived before the does-not-exist
   * timer fired, or a state-of-the-world response left it out. Stop using the last value.
   *
   * @param resourceName the watched resource's name
   */
  void onResourceDoesNotExist(String resourceName);

  /**
   * Something went wrong (the stream failed, or the control plane sent an invalid version). If a
   * value was delivered before, it stays valid: keep using it. The status is always
   * {@code UNAVAILABLE}; its description holds the original cause, the resource name and the node
   * id (gRFC A54).
   *
   * @param error what went wrong, always {@code UNAVAILABLE}
   */
  void onError(Status error);
}
