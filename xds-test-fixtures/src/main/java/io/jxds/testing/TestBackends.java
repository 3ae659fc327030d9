package io.jxds.testing;

import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A test's {@link TestBackend}s, by name: it starts them on free 127.0.0.1 ports, stops and
 * restarts them (a backend that dies and comes back on the same port), and closes them all at the
 * end. {@link XdsTestBed} has one per test; a test without the bed closes its own. Thread-safe.
 *
 * <pre>{@code
 * List<TestBackend> two = backends.start(2);   // "backend-1", "backend-2"
 * TestBackend tls = backends.start("secure", TlsServerCredentials.create(chain, key));
 * backends.stop("backend-1");
 * backends.restart("backend-1");
 * }</pre>
 */
public final class TestBackends implements AutoCloseable {
  private final Map<String, TestBackend> backends = new LinkedHashMap<>();

  /** No backends yet. */
  public TestBackends() {}

  /**
   * Starts {@code n} plaintext backends, named {@code backend-1}, {@code backend-2}, ... after
   * those started so.
   *
   * @param n how many
   * @return the backends, in name order
   * @throws UncheckedIOException if a backend cannot listen
   */
  public synchronized List<TestBackend> start(int n) {
    List<TestBackend> started = new ArrayList<>();
    int first = backends.size() + 1;
    for (int i = first; started.size() < n; i++) {
      if (!backends.containsKey("backend-" + i)) {
        started.add(start("backend-" + i));
      }
    }
    return started;
  }

  /**
   * Starts a plaintext backend named {@code name}.
   *
   * @param name the name it answers
   * @return the backend
   * @throws IllegalArgumentException if a backend has that name
   * @throws UncheckedIOException if it cannot listen
   */
  public TestBackend start(String name) {
    return start(name, InsecureServerCredentials.create());
  }

  /**
   * Starts a backend named {@code name} serving with {@code credentials} (e.g. TLS, to test
   * upstream TLS from the control plane).
   *
   * @param name the name it answers
   * @param credentials its server credentials
   * @return the backend
   * @throws IllegalArgumentException if a backend has that name
   * @throws UncheckedIOException if it cannot listen
   */
  public synchronized TestBackend start(String name, ServerCredentials credentials) {
    if (backends.containsKey(name)) {
      throw new IllegalArgumentException("a backend is named " + name + " already");
    }
    TestBackend backend = new TestBackend(name, credentials);
    startOn(backend, 0);
    backends.put(name, backend);
    return backend;
  }

  /**
   * The backend named {@code name}.
   *
   * @param name its name
   * @return the backend
   * @throws IllegalArgumentException if there is none
   */
  public synchronized TestBackend get(String name) {
    TestBackend backend = backends.get(name);
    if (backend == null) {
      throw new IllegalArgumentException("no backend " + name + "; there are " + backends.keySet());
    }
    return backend;
  }

  /**
   * Stops backends at once, as when their processes die: each is shut down, cutting its
   * connections, before any is awaited. Their ports stay theirs for {@link #restart}.
   *
   * @param names the backends' names
   * @throws InterruptedException if interrupted while waiting for them to stop
   */
  public void stop(String... names) throws InterruptedException {
    List<Server> stopping = new ArrayList<>();
    for (String name : names) {
      Server server = get(name).shutdownNow();
      if (server != null) {
        stopping.add(server);
      }
    }
    for (Server server : stopping) {
      server.awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /**
   * Starts a stopped backend again, on its port.
   *
   * @param name the backend's name
   * @throws UncheckedIOException if the port cannot be bound again
   */
  public void restart(String name) {
    TestBackend backend = get(name);
    startOn(backend, backend.port());
  }

  /** Stops every backend. */
  @Override
  public synchronized void close() throws InterruptedException {
    for (TestBackend backend : backends.values()) {
      backend.stop();
    }
  }

  private static void startOn(TestBackend backend, int port) {
    try {
      backend.start(port);
    } catch (IOException e) {
      throw new UncheckedIOException("backend " + backend.name() + " cannot listen on 127.0.0.1:" + port, e);
    }
  }
}
