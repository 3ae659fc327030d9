package io.jxds.testing;

import io.grpc.BindableService;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts and stops a {@link FakeAdsServer} on its {@link Transport}, any number of times: a stop
 * cuts every stream and drops what was not sent; what is served and what was recorded stay, so a
 * start resumes where the server left off (a control-plane restart). Thread-safe.
 */
final class ServerLifecycle {
  private static final Logger logger = LoggerFactory.getLogger(ServerLifecycle.class);
  private static final long STOP_TIMEOUT_SECONDS = 5;

  private final Transport transport;
  private final List<BindableService> services;
  private final Monitor monitor;
  private final OpenStreams streams;
  private final ResponseSender sender;
  private final UnexpectedErrors errors;
  private final Object startStop = new Object();
  private volatile ServerCredentials credentials = InsecureServerCredentials.create();
  private @Nullable Server server; // guarded by monitor; null while stopped

  ServerLifecycle(Transport transport, List<BindableService> services, Monitor monitor, OpenStreams streams,
      ResponseSender sender, UnexpectedErrors errors) {
    this.transport = transport;
    this.services = services;
    this.monitor = monitor;
    this.streams = streams;
    this.sender = sender;
    this.errors = errors;
  }

  void credentials(ServerCredentials newCredentials) {
    credentials = Objects.requireNonNull(newCredentials, "credentials");
  }

  boolean isRunning() {
    return monitor.get(() -> server != null);
  }

  /**
   * Starts serving unless running.
   *
   * @throws UncheckedIOException if the transport cannot listen
   */
  void start() {
    synchronized (startStop) {
      if (isRunning()) {
        return;
      }
      sender.start(); // before the server starts: streams may open at once
      Server newServer = transport.build(services, credentials);
      try {
        newServer.start();
      } catch (IOException e) {
        newServer.shutdownNow();
        monitor.get(sender::detach).shutdownNow();
        releaseTransport();
        throw new UncheckedIOException("FakeAdsServer could not start on " + transport, e);
      }
      transport.started(newServer);
      monitor.run(() -> server = newServer);
      logger.debug("FakeAdsServer started on {}", transport);
    }
  }

  /**
   * Stops serving unless stopped: every open stream is cut at once ({@code shutdownNow}: a plain
   * shutdown would wait for the open ADS streams forever), held or delayed responses are dropped.
   */
  void stop() {
    synchronized (startStop) {
      Server oldServer = monitor.get(() -> server);
      if (oldServer == null) {
        return;
      }
      ExecutorService oldSender = monitor.get(() -> {
        server = null;
        streams.closeAll();
        return sender.detach();
      });
      oldServer.shutdownNow();
      oldSender.shutdownNow();
      try {
        if (!oldServer.awaitTermination(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          errors.record(new IllegalStateException("server did not terminate in 5 s"));
        }
        oldSender.awaitTermination(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      releaseTransport();
      logger.debug("FakeAdsServer stopped on {}", transport);
    }
  }

  private void releaseTransport() {
    try {
      transport.stopped();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
