package io.jxds.client.internal.tls;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jxds.api.CertificateProvider.Material;
import io.jxds.client.bootstrap.CertificateProviderSpec;
import io.jxds.testing.FakeClock;
import io.jxds.testing.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The file_watcher plugin (gRFC A29): re-read on the interval, last good material kept, failures logged once. */
class FileWatcherProviderTest {
  @TempDir Path dir;
  private final FakeClock clock = new FakeClock();
  private final TestPki ca = TestPki.create("ca");
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(FileCertificateSource.class);
  private Path cert;
  private Path key;
  private Path roots;
  private FileWatcherProvider provider;

  @BeforeEach
  void setUp() {
    logs.start();
    logger.addAppender(logs);
    cert = dir.resolve("cert.pem");
    key = dir.resolve("key.pem");
    roots = dir.resolve("ca.pem");
    TestPki.Identity first = ca.issue("first");
    first.writeCertificate(cert);
    first.writeKey(key);
    ca.writeCertificate(roots);
    provider = FileWatcherProvider.start("default", new CertificateProviderSpec(
        Optional.of(cert.toString()), Optional.of(key.toString()), Optional.of(roots.toString()),
        Duration.ofMinutes(10)), clock);
  }

  @AfterEach
  void tearDown() {
    provider.close();
    logger.detachAppender(logs);
  }

  @Test
  void filesAreReadAtStartAndAgainEveryRefreshInterval() {
    Material first = provider.material();
    assertThat(first.certificateChain().get(0).getSubjectX500Principal().getName()).isEqualTo("CN=first");
    assertThat(first.privateKey()).isPresent();
    assertThat(first.rootCertificates()).containsExactly(ca.certificate());

    TestPki.Identity second = ca.issue("second");
    second.writeCertificate(cert);
    second.writeKey(key);
    clock.forwardTime(9, TimeUnit.MINUTES);
    assertThat(provider.material()).isSameAs(first);
    clock.forwardTime(1, TimeUnit.MINUTES);

    Material now = provider.material();
    assertThat(now.certificateChain().get(0).getSubjectX500Principal().getName()).isEqualTo("CN=second");
    assertThat(now.privateKey()).contains(second.privateKey());
    assertThat(now.generation()).isGreaterThan(first.generation());
    clock.forwardTime(10, TimeUnit.MINUTES);
    assertThat(provider.material()).as("unchanged files: same material").isSameAs(now);
  }

  @Test
  void brokenFilesKeepTheLastGoodMaterialAndAreLoggedOncePerFailure() throws Exception {
    Material good = provider.material();
    Files.delete(cert);
    clock.forwardTime(10, TimeUnit.MINUTES);
    clock.forwardTime(10, TimeUnit.MINUTES);
    assertThat(provider.material()).isSameAs(good);
    assertThat(provider.failure()).hasValueSatisfying(f -> assertThat(f)
        .startsWith("certificate_providers \"default\": cannot read " + cert)
        .endsWith("; keeping the last good material"));

    Files.writeString(cert, "garbage");
    clock.forwardTime(10, TimeUnit.MINUTES);
    clock.forwardTime(10, TimeUnit.MINUTES);
    assertThat(provider.material()).isSameAs(good);
    assertThat(provider.failure()).hasValueSatisfying(f -> assertThat(f).contains(cert.toString()));

    ca.issue("other").writeCertificate(cert); // a certificate whose key is not key.pem
    clock.forwardTime(10, TimeUnit.MINUTES);
    assertThat(provider.material()).isSameAs(good);
    assertThat(provider.failure()).hasValueSatisfying(f -> assertThat(f)
        .contains("the private key does not match the certificate CN=other"));

    assertThat(warnings()).hasSize(3); // three distinct failures, each logged once

    TestPki.Identity fixed = ca.issue("fixed");
    fixed.writeKey(key);
    fixed.writeCertificate(cert);
    clock.forwardTime(10, TimeUnit.MINUTES);
    assertThat(provider.material().certificateChain().get(0).getSubjectX500Principal().getName())
        .isEqualTo("CN=fixed");
    assertThat(provider.failure()).isEmpty();
  }

  @Test
  void closeStopsTheRereads() {
    provider.close();
    assertThat(clock.numPendingTasks()).isZero();
  }

  private java.util.List<ILoggingEvent> warnings() {
    return logs.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
  }
}
