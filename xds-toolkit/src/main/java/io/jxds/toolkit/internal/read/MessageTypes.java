package io.jxds.toolkit.internal.read;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Message;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the protobuf descriptor of a type URL ({@code type.googleapis.com/envoy.config.cluster.v3.Cluster})
 * among the classes on the class path, by the Java packages the xDS protos declare: {@code envoy.*}
 * in {@code io.envoyproxy.envoy}, {@code xds.*} in {@code com.github.xds}, {@code udpa.*} in
 * {@code com.github.udpa.udpa}, {@code google.protobuf.*} in {@code com.google.protobuf}. A type the
 * class path lacks is one no client built on the same envoy API could read either.
 */
public final class MessageTypes {
  private static final Map<String, Optional<Descriptor>> FOUND = new ConcurrentHashMap<>();
  private static final Map<String, Optional<Message>> INSTANCES = new ConcurrentHashMap<>();
  private static final List<String[]> PACKAGES = List.of(
      new String[] {"envoy.", "io.envoyproxy.envoy."},
      new String[] {"xds.", "com.github.xds."},
      new String[] {"udpa.", "com.github.udpa.udpa."},
      new String[] {"google.protobuf.", "com.google.protobuf."},
      new String[] {"google.rpc.", "com.google.rpc."},
      new String[] {"validate.", "io.envoyproxy.pgv.validate."});

  private MessageTypes() {}

  /** The message named by {@code typeUrl} (anything up to its last {@code /} is ignored). */
  public static Optional<Descriptor> find(String typeUrl) {
    String name = typeUrl.substring(typeUrl.lastIndexOf('/') + 1);
    return FOUND.computeIfAbsent(name, MessageTypes::load);
  }

  private static Optional<Descriptor> load(String fullName) {
    return defaultInstance(fullName).map(Message::getDescriptorForType);
  }

  /** The generated class's default instance of the message named {@code fullName}. */
  static Optional<Message> defaultInstance(String fullName) {
    return INSTANCES.computeIfAbsent(fullName, MessageTypes::loadInstance);
  }

  private static Optional<Message> loadInstance(String fullName) {
    for (String[] p : PACKAGES) {
      if (fullName.startsWith(p[0])) {
        String className = p[1] + fullName.substring(p[0].length());
        // A nested message is Outer$Inner: try each split from the right.
        for (String candidate = className; candidate != null; candidate = nest(candidate)) {
          Optional<Message> m = instanceOf(candidate);
          if (m.isPresent() && m.get().getDescriptorForType().getFullName().equals(fullName)) {
            return m;
          }
        }
      }
    }
    return Optional.empty();
  }

  private static String nest(String className) {
    int dot = className.lastIndexOf('.');
    return dot < 0 ? null : className.substring(0, dot) + "$" + className.substring(dot + 1);
  }

  private static Optional<Message> instanceOf(String className) {
    try {
      Class<?> c = Class.forName(className, false, MessageTypes.class.getClassLoader());
      if (!Message.class.isAssignableFrom(c)) {
        return Optional.empty();
      }
      return Optional.of((Message) c.getMethod("getDefaultInstance").invoke(null));
    } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
      return Optional.empty();
    }
  }
}
