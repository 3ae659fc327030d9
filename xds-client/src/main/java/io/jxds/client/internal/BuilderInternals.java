package io.jxds.client.internal;

import io.jxds.client.XdsClientBuilder;
import io.jxds.client.internal.stream.AdsTransport;

/**
 * Not API: the builder's test and benchmark seams, kept off {@link XdsClientBuilder}'s public
 * surface. The builder installs its accessor once, when it is initialised; benchmarks outside the
 * client's package reach the seam through here.
 */
public final class BuilderInternals {
  /** What {@code XdsClientBuilder} installs. */
  public interface Access {
    /** Replaces the builder's gRPC transport. */
    XdsClientBuilder transport(XdsClientBuilder builder, AdsTransport transport);
  }

  private static volatile Access access;

  private BuilderInternals() {}

  /**
   * Called once by {@code XdsClientBuilder}'s static initialiser.
   *
   * @throws IllegalStateException if an accessor is installed already
   */
  public static synchronized void install(Access a) {
    if (access != null) {
      throw new IllegalStateException("BuilderInternals is installed already");
    }
    access = a;
  }

  /** Makes {@code builder} build a client that speaks ADS over {@code transport} instead of gRPC. */
  public static XdsClientBuilder transport(XdsClientBuilder builder, AdsTransport transport) {
    // Holding a builder means its class initialiser has run, and with it install().
    return access.transport(builder, transport);
  }
}
