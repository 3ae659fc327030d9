package io.jxds.client.internal.tls;

import io.grpc.ChannelCredentials;
import io.grpc.alts.GoogleDefaultChannelCredentials;

/**
 * {@code channel_creds} {@code google_default} (Traffic Director, Cloud Service Mesh): the
 * credentials grpc-java builds for it, {@code GoogleDefaultChannelCredentials.create()} from
 * {@code io.grpc:grpc-alts} (TLS to the control plane, with OAuth2 call credentials from the
 * application default credentials). grpc-alts is an optional dependency: the bootstrap parser
 * checks {@link #isAvailable} first, so that without it the bootstrap error names the artifact and
 * no class of it is loaded.
 */
public final class GoogleDefaultCredentials {
  /** The {@code channel_creds} type. */
  public static final String TYPE = "google_default";
  /** The artifact an application adds for {@value #TYPE}. */
  public static final String ARTIFACT = "io.grpc:grpc-alts";
  private static final String FACTORY = "io.grpc.alts.GoogleDefaultChannelCredentials";

  private GoogleDefaultCredentials() {}

  /**
   * Whether grpc-alts is on the class path that {@code loader} sees.
   *
   * @param loader the class loader to look in
   * @return true if {@code GoogleDefaultChannelCredentials} can be loaded
   */
  public static boolean isAvailable(ClassLoader loader) {
    try {
      Class.forName(FACTORY, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * The credentials grpc-java builds for {@value #TYPE}. Without application default credentials
   * they still build: every call on them then fails UNAUTHENTICATED, as in grpc-java.
   *
   * @return a fresh {@code GoogleDefaultChannelCredentials.create()}
   * @throws IllegalStateException if grpc-alts is not on the class path
   */
  public static ChannelCredentials create() {
    if (!isAvailable(GoogleDefaultCredentials.class.getClassLoader())) {
      throw new IllegalStateException("channel_creds " + TYPE + " needs " + ARTIFACT + " on the class path");
    }
    return Alts.create();
  }

  /** Loaded only once grpc-alts is known to be there. */
  private static final class Alts {
    static ChannelCredentials create() {
      return GoogleDefaultChannelCredentials.create();
    }
  }
}
