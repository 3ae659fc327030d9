package io.jxds.client.internal.stream;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;

/**
 * A control plane in the same JVM: a {@code server_uri} of the form {@code inprocess:NAME} is
 * dialled with grpc-java's {@code InProcessChannelBuilder.forName(NAME)}, since grpc-java has no
 * resolver for that form (ARCHITECTURE.md, "The xDS client"). Tests use it to run a fake control
 * plane without a port. {@code io.grpc:grpc-inprocess} is an optional dependency: a target of this
 * form without it on the class path is a clear error, and no other target loads it.
 */
public final class InProcessTarget {
  private static final String PREFIX = "inprocess:";
  private static final String BUILDER = "io.grpc.inprocess.InProcessChannelBuilder";

  private InProcessTarget() {}

  /** Whether {@code target} names an in-process server. */
  public static boolean matches(String target) {
    return target.startsWith(PREFIX);
  }

  /**
   * A channel to the in-process server {@code target} names.
   *
   * @throws IllegalArgumentException when the name is empty or the credentials are not insecure
   *     (an in-process transport has no security to configure)
   * @throws IllegalStateException when grpc-inprocess is not on the class path
   */
  public static ManagedChannel channel(String target, ChannelCredentials credentials) {
    String name = target.substring(PREFIX.length());
    if (name.isEmpty()) {
      throw new IllegalArgumentException("server_uri \"" + target + "\": no server name after \"" + PREFIX + "\"");
    }
    if (!(credentials instanceof InsecureChannelCredentials)) {
      throw new IllegalArgumentException("server_uri \"" + target + "\": an in-process server takes insecure "
          + "channel credentials, not " + credentials.getClass().getSimpleName());
    }
    try {
      Class.forName(BUILDER, false, InProcessTarget.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "server_uri \"" + target + "\" needs io.grpc:grpc-inprocess on the class path", e);
    }
    return Dial.channel(name);
  }

  /** Loaded only once the builder is known to be there. */
  private static final class Dial {
    static ManagedChannel channel(String name) {
      return InProcessChannelBuilder.forName(name).build();
    }
  }
}
