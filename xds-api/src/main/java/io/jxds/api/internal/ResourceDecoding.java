package io.jxds.api.internal;

import com.google.protobuf.Any;
import io.jxds.api.ResourceType;
import io.jxds.api.XdsResourceException;

/**
 * The client's way into a {@link ResourceType}'s decoder. Unpacking is not part of the user API
 * (users receive model values through watchers), so {@code ResourceType} offers no public method for
 * it: it hands this class an accessor once, when it is initialised, and the client calls
 * {@link #unpack} here. Not for use outside jxds.
 */
public final class ResourceDecoding {
  /** What {@code ResourceType} installs: its private unpacking, reachable only through here. */
  public interface Access {
    /** Unpacks {@code any} as a resource of {@code type}. */
    <T> UnpackedResource<T> unpack(ResourceType<T> type, Any any) throws XdsResourceException;
  }

  private static volatile Access access;

  private ResourceDecoding() {}

  /**
   * Called once by {@code ResourceType}'s static initialiser.
   *
   * @throws IllegalStateException if an accessor is installed already
   */
  public static synchronized void install(Access a) {
    if (access != null) {
      throw new IllegalStateException("ResourceDecoding is installed already");
    }
    access = a;
  }

  /**
   * Takes a resource out of its {@code Any}, unwrapping an {@code envoy.service.discovery.v3.Resource}
   * (whose name then wins), and checks its type URL. Validation is left to
   * {@link UnpackedResource#decode()}, whose result and errors are the same either way; a type with a
   * one-pass bytes decoder (EDS) may already have decoded a valid resource here, as reading its bytes
   * once costs less than parsing them.
   *
   * @throws XdsResourceException if the type URL is wrong or the bytes do not parse
   */
  public static <T> UnpackedResource<T> unpack(ResourceType<T> type, Any any) throws XdsResourceException {
    // Holding an instance means ResourceType's initialiser has run, and with it install().
    return access.unpack(type, any);
  }
}
