package io.jxds.api.internal;

import io.jxds.api.XdsResourceException;

/**
 * A resource taken out of its {@code Any} whose name is known but which is not yet validated: the
 * client validates only resources somebody watches (gRFC A46).
 *
 * @param <T> the model type it decodes to
 */
public interface UnpackedResource<T> {
  /** The resource's name (from the {@code Resource} wrapper when there was one). */
  String name();

  /** Validates the resource and builds its model value. */
  T decode() throws XdsResourceException;
}
