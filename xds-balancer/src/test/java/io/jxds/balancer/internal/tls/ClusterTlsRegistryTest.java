package io.jxds.balancer.internal.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.api.model.UpstreamTlsSettings;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Handshakes find their cluster's TLS by the channel's authority, as the SSL engine has it. */
class ClusterTlsRegistryTest {
  private final ClusterTlsRegistry registry = new ClusterTlsRegistry();

  @Test
  void authorityIsMatchedAsHostAndPort() {
    registry.register("payments", tls("payments"));
    registry.register("payments.example.com:8443", tls("secure"));

    assertThat(registry.lookup("payments", -1).map(ClusterTls::cluster)).contains("payments");
    assertThat(registry.lookup("payments.example.com", 8443).map(ClusterTls::cluster)).contains("secure");
    assertThat(registry.lookup("payments", 443)).isEmpty();
    assertThat(registry.lookup("other", -1)).isEmpty();
  }

  @Test
  void latestRegistrationServesAndTheOneBeforeComesBackWhenItCloses() {
    ClusterTlsRegistry.Registration old = registry.register("payments", tls("old"));
    ClusterTlsRegistry.Registration next = registry.register("payments", tls("new"));
    assertThat(registry.lookup("payments", -1).map(ClusterTls::cluster)).contains("new");

    next.close();
    assertThat(registry.lookup("payments", -1).map(ClusterTls::cluster)).contains("old");

    old.update(tls("updated"));
    assertThat(registry.lookup("payments", -1).map(ClusterTls::cluster)).contains("updated");
    old.close();
    old.close();
    assertThat(registry.lookup("payments", -1)).isEmpty();
  }

  private static ClusterTls tls(String cluster) {
    return new ClusterTls(cluster, UpstreamTlsSettings.mutual("default", List.of()), Optional.empty(),
        Optional.empty());
  }
}
