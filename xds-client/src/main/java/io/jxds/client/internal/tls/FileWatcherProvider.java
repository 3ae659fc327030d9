package io.jxds.client.internal.tls;

import io.jxds.api.CertificateProvider;
import io.jxds.client.bootstrap.CertificateProviderSpec;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@code file_watcher} certificate provider plugin (gRFC A29): reads its files at once, then again
 * every {@code refresh_interval} on the client's timer thread, until closed.
 */
public final class FileWatcherProvider implements CertificateProvider, AutoCloseable {
  private final FileCertificateSource source;
  private final ScheduledFuture<?> refresh;

  private FileWatcherProvider(FileCertificateSource source, ScheduledFuture<?> refresh) {
    this.source = source;
    this.refresh = refresh;
  }

  /** Reads the files now and schedules the re-reads. */
  public static FileWatcherProvider start(String instanceName, CertificateProviderSpec spec,
      ScheduledExecutorService scheduler) {
    FileCertificateSource source = new FileCertificateSource(
        "certificate_providers \"" + instanceName + "\"", spec.certificateFile(), spec.privateKeyFile(),
        spec.caCertificateFile());
    source.refresh();
    long nanos = spec.refreshInterval().toNanos();
    ScheduledFuture<?> refresh = scheduler.scheduleWithFixedDelay(source::refresh, nanos, nanos, TimeUnit.NANOSECONDS);
    return new FileWatcherProvider(source, refresh);
  }

  @Override
  public Material material() {
    return source.material();
  }

  @Override
  public Optional<String> failure() {
    return source.failure();
  }

  /** Stops the re-reads; the last material stays readable. */
  @Override
  public void close() {
    refresh.cancel(false);
  }
}
