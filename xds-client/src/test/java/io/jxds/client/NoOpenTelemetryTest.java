package io.jxds.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * OpenTelemetry is an optional dependency: a client builds, runs and closes on a class path
 * without any OpenTelemetry jar.
 */
class NoOpenTelemetryTest {
  @Test
  void clientWorksWithoutTheOpenTelemetryApi() throws Exception {
    List<URL> urls = new ArrayList<>();
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    for (String entry : classPath.split(File.pathSeparator)) {
      if (!entry.contains("opentelemetry")) {
        urls.add(toUrl(entry));
      }
    }
    try (URLClassLoader isolated = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      assertThat(isolated.getResource("io/opentelemetry/api/OpenTelemetry.class")).isNull();
      @SuppressWarnings("unchecked")
      Callable<String> run = (Callable<String>) isolated.loadClass(BuildAndClose.class.getName())
          .getDeclaredConstructor().newInstance();

      assertThat(run.call()).isEqualTo("closed");
    }
  }

  private static URL toUrl(String entry) {
    try {
      return new File(entry).toURI().toURL();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException(entry, e);
    }
  }

  /** Runs inside the isolated class loader. */
  public static final class BuildAndClose implements Callable<String> {
    @Override
    public String call() {
      DefaultXdsClient client =
          XdsClientBuilder.forTarget("127.0.0.1:1", io.grpc.InsecureChannelCredentials.create()).build();
      client.watchCluster("payments", new RecordingWatcher<>(), Runnable::run);
      client.status();
      client.close();
      return client.isClosed() ? "closed" : "open";
    }
  }
}
