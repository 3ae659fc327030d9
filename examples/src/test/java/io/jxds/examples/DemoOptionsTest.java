package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DemoOptionsTest {
  @Test
  void defaultsRunTheEmbeddedScriptInAboutHalfAMinute() {
    assertThat(DemoOptions.parse()).isEqualTo(
        new DemoOptions(Optional.empty(), "payments", Duration.ofSeconds(35), 1500, false, Optional.empty()));
  }

  @Test
  void externalControlPlaneNeedsAClusterAndRunsUntilStoppedByDefault() {
    assertThat(DemoOptions.parse("--xds-server", "10.0.0.1:18000", "--cluster", "orders")).isEqualTo(
        new DemoOptions(Optional.of("10.0.0.1:18000"), "orders", Duration.ZERO, 1500, false, Optional.empty()));
    assertThatThrownBy(() -> DemoOptions.parse("--xds-server", "10.0.0.1:18000"))
        .hasMessageContaining("--cluster");
  }

  @Test
  void listenerIsForAnExternalControlPlane() {
    assertThat(DemoOptions.parse("--xds-server", "10.0.0.1:18000", "--cluster", "orders", "--listener", "shop")
        .listener()).contains("shop");
    assertThat(DemoOptions.parse().listener()).isEmpty();
    assertThatThrownBy(() -> DemoOptions.parse("--listener", "shop")).hasMessageContaining("--xds-server");
  }

  @Test
  void statusIsAFlagWithoutValue() {
    assertThat(DemoOptions.parse("--status", "--rate", "10").status()).isTrue();
    assertThat(DemoOptions.parse("--rate", "10", "--status").rate()).isEqualTo(10);
  }

  @Test
  void badFlagsAreNamed() {
    assertThatThrownBy(() -> DemoOptions.parse("--duration", "soon")).hasMessageContaining("--duration");
    assertThatThrownBy(() -> DemoOptions.parse("--duration", "9")).hasMessageContaining("at least 10");
    assertThatThrownBy(() -> DemoOptions.parse("--colour", "red")).hasMessageContaining("--colour");
    assertThatThrownBy(() -> DemoOptions.parse("--rate")).hasMessageContaining("missing value");
  }
}
