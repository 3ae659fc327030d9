package io.jxds.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The extension's lifecycle, driven by hand (the context is not used). */
class FakeAdsServerExtensionTest {

  @Test
  void eachTestGetsAFreshRunningServerStoppedAfterwards() {
    FakeAdsServerExtension extension = FakeAdsServerExtension.loopback();
    assertThatThrownBy(extension::server).isInstanceOf(IllegalStateException.class);

    extension.beforeEach(null);
    FakeAdsServer first = extension.server();
    assertThat(first.isRunning()).isTrue();
    assertThat(first.port()).isPositive();
    first.setClusters(FakeAdsServerTest.cluster("a"));
    extension.afterEach(null);

    assertThat(first.isRunning()).isFalse();
    extension.beforeEach(null);
    FakeAdsServer second = extension.server();
    assertThat(second).isNotSameAs(first);
    assertThat(second.version(FakeAdsServer.CLUSTER_TYPE_URL)).isEmpty();
    extension.afterEach(null);
  }

  @Test
  void unexpectedServerErrorFailsTheTest() {
    FakeAdsServerExtension extension = FakeAdsServerExtension.inProcess();
    extension.beforeEach(null);
    FakeAdsServer server = extension.server();
    server.recordUnexpected(new IllegalStateException("boom"));

    assertThatThrownBy(() -> extension.afterEach(null))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("1 unexpected error")
        .hasRootCauseMessage("boom");
    assertThat(server.isRunning()).isFalse();
  }
}
