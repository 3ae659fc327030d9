package io.jxds.soak;

import java.util.List;
import java.util.function.IntUnaryOperator;

/** The control plane under the soak: java-control-plane or FakeAdsServer, on a fixed loopback port. */
interface SoakControlPlane extends AutoCloseable {
  /** {@code 127.0.0.1:PORT}, the same across restarts. */
  String serverUri();

  /**
   * States the clusters and listeners (deleted ones left out) and the route configurations of the
   * listeners that use RDS (all of them). A type's version changes only when its resources
   * changed, or when {@code newerVersion}. While stopped, the change is kept for the next start.
   */
  void publish(List<ClusterModel> clusters, RouteModel routes, IntUnaryOperator portOfBackend, boolean newerVersion);

  void stop() throws InterruptedException;

  /** Starts again on the same port with the latest published config. */
  void start();

  /** ADS streams open now. */
  int openStreams();

  /** ADS streams opened since the start of the run (including restarts). */
  long streamsOpened();

  /** The version a client holding the latest config has for this type URL. */
  String version(String typeUrl);

  /** The version a delta client holding the latest config has for this resource. */
  String resourceVersion(String typeUrl, String name);

  /** Closes every open stream with UNAVAILABLE (the server keeps running). */
  void breakStreams();

  /** While on, every stream is closed (status OK) right after the server sends a response. */
  void recycle(boolean on);

  @Override
  void close();
}
