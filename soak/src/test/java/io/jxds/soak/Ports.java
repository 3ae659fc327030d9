package io.jxds.soak;

import io.grpc.Server;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.IntFunction;

/** Starts a server on a given loopback port (0: any), retrying a port just released for up to 5 s. */
final class Ports {
  private Ports() {}

  static Server bind(int port, IntFunction<Server> build) {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (true) {
      Server server = build.apply(port);
      try {
        return server.start();
      } catch (IOException e) {
        server.shutdownNow();
        if (port == 0 || System.nanoTime() > deadline) {
          throw new UncheckedIOException("cannot listen on 127.0.0.1:" + port, e);
        }
        try {
          Thread.sleep(50); // the old listener's socket is still closing: bounded retry
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new UncheckedIOException("interrupted binding 127.0.0.1:" + port, e);
        }
      }
    }
  }
}
