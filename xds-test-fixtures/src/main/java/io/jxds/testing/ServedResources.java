package io.jxds.testing;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link FakeAdsServer} serves: the resources of each type URL and their versions. Every
 * change of a type bumps its version, even one that changes nothing. Not thread-safe: guarded by
 * the server's {@link Monitor}.
 */
final class ServedResources {
  private static final Logger logger = LoggerFactory.getLogger(ServedResources.class);

  private final Map<String, ServedType> types = new HashMap<>();

  /**
   * @param alwaysServed the type URLs served from the start, each mapped to whether it is a
   *     full-state type (a response carries every resource, and a missing name is a deletion)
   */
  ServedResources(Map<String, Boolean> alwaysServed) {
    alwaysServed.forEach((typeUrl, fullState) -> types.put(typeUrl, new ServedType(typeUrl, fullState)));
  }

  /** The type, or null when it is not served: never set, and not one of the always served. */
  @Nullable ServedType get(String typeUrl) {
    return types.get(typeUrl);
  }

  /** Replaces every resource of {@code typeUrl} (serving it from now on) and bumps its version. */
  ServedType set(String typeUrl, Map<String, Any> resources) {
    return change(typeUrl, current -> {
      current.clear();
      current.putAll(resources);
    });
  }

  /** Adds or replaces resources of {@code typeUrl}, keeping the others, and bumps its version. */
  ServedType put(String typeUrl, Map<String, Any> resources) {
    return change(typeUrl, current -> current.putAll(resources));
  }

  /** Removes the named resources of {@code typeUrl} (unknown names are ignored) and bumps its version. */
  ServedType remove(String typeUrl, Collection<String> names) {
    return change(typeUrl, current -> current.keySet().removeAll(names));
  }

  private ServedType change(String typeUrl, Consumer<Map<String, Any>> change) {
    ServedType type = types.computeIfAbsent(Objects.requireNonNull(typeUrl, "typeUrl"), t -> new ServedType(t, false));
    Map<String, Any> before = new HashMap<>(type.resources);
    change.accept(type.resources);
    type.changedFrom(before);
    logger.debug("{} now at version {} with {}", typeUrl, type.version, type.resources.keySet());
    return type;
  }

  /** The type's version, or {@code ""} if it has never been set. */
  String version(String typeUrl) {
    ServedType type = types.get(typeUrl);
    return type == null || type.version == null ? "" : type.version;
  }

  /** A resource's delta version, or {@code ""} if it does not exist. */
  String resourceVersion(String typeUrl, String name) {
    ServedType type = types.get(typeUrl);
    return type == null ? "" : type.resourceVersions.getOrDefault(name, "");
  }

  /**
   * Packs messages for {@code typeUrl}: an {@link Any} as is (to serve a mismatched type on
   * purpose), any other message as an {@code Any} that must be of that type.
   *
   * @throws IllegalArgumentException if a message packs to another type URL
   */
  static Map<String, Any> pack(String typeUrl, Map<String, ? extends Message> resources) {
    Objects.requireNonNull(typeUrl, "typeUrl");
    Map<String, Any> packed = new LinkedHashMap<>();
    resources.forEach((name, message) -> {
      Any any = message instanceof Any a ? a : Any.pack(message);
      if (!(message instanceof Any) && !any.getTypeUrl().equals(typeUrl)) {
        throw new IllegalArgumentException("resource '" + name + "' is a " + any.getTypeUrl() + ", not a " + typeUrl
            + " (pass an Any to serve a mismatched type on purpose)");
      }
      packed.put(Objects.requireNonNull(name, "resource name"), any);
    });
    return packed;
  }

  /**
   * Keys messages by their name.
   *
   * @throws IllegalArgumentException if two have the same name
   */
  static <T extends Message> Map<String, T> byName(List<T> messages, Function<T, String> name) {
    Map<String, T> map = new LinkedHashMap<>();
    for (T message : messages) {
      if (map.put(name.apply(message), message) != null) {
        throw new IllegalArgumentException("two resources named '" + name.apply(message) + "'");
      }
    }
    return map;
  }
}
