package io.jxds.balancer.internal.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ChannelCredentials;
import io.grpc.CompositeChannelCredentials;
import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.Metadata;
import io.grpc.TlsChannelCredentials;
import io.jxds.api.CertificateProvider;
import io.jxds.api.model.UpstreamTlsSettings;
import io.jxds.api.testing.FakeXdsClient;
import io.jxds.balancer.XdsClusterCredentials;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/** Which credentials and clients can serve a TLS cluster, and what the CDS layer says otherwise. */
class ClusterTlsBindingTest {
  private final FakeXdsClient client = new FakeXdsClient();

  @Test
  void providerTheClientLacksFailsNamingFieldAndInstance() {
    ClusterTlsBinding binding = new ClusterTlsBinding(helper(XdsClusterCredentials.create()), client, "payments");
    client.certificateProviders(Map.of("spare", provider()));

    assertThat(binding.apply(Optional.of(UpstreamTlsSettings.mutual("default", List.of()))))
        .contains("cluster payments: tls_certificate_provider_instance \"default\" is not a certificate provider "
            + "of the xDS client's bootstrap [spare]");
  }

  @Test
  void knownProvidersRegisterTheClusterUnderTheChannelsAuthority() {
    ChannelCredentials credentials = XdsClusterCredentials.create();
    ClusterTlsBinding binding = new ClusterTlsBinding(helper(credentials), client, "payments");
    client.certificateProviders(Map.of("default", provider()));

    assertThat(binding.apply(Optional.of(UpstreamTlsSettings.mutual("default", List.of())))).isEmpty();

    ClusterTlsRegistry registry = ClusterCredentials.registryOf(credentials).orElseThrow();
    assertThat(registry.lookup("payments", -1).map(ClusterTls::cluster)).contains("payments");
    binding.close();
    assertThat(registry.lookup("payments", -1)).isEmpty();
  }

  @Test
  void credentialsAreFoundBehindCallCredentialsAndOnlyOurs() {
    ChannelCredentials ours = XdsClusterCredentials.create();
    assertThat(ClusterCredentials.registryOf(CompositeChannelCredentials.create(ours, new NoCallCredentials())))
        .isPresent();
    assertThat(ClusterCredentials.registryOf(TlsChannelCredentials.create())).isEmpty();
    assertThat(ClusterCredentials.registryOf(null)).isEmpty();
  }

  private static CertificateProvider provider() {
    return new CertificateProvider() {
      @Override
      public Material material() {
        return Material.EMPTY;
      }

      @Override
      public Optional<String> failure() {
        return Optional.empty();
      }
    };
  }

  private static LoadBalancer.Helper helper(ChannelCredentials credentials) {
    return new LoadBalancer.Helper() {
      @Override
      public void updateBalancingState(ConnectivityState state, LoadBalancer.SubchannelPicker picker) {}

      @Override
      public String getAuthority() {
        return "payments";
      }

      @Override
      public ChannelCredentials getChannelCredentials() {
        return credentials.withoutBearerTokens();
      }

      @Override
      public io.grpc.ManagedChannel createOobChannel(io.grpc.EquivalentAddressGroup eag, String authority) {
        throw new UnsupportedOperationException();
      }
    };
  }

  private static final class NoCallCredentials extends io.grpc.CallCredentials {
    @Override
    public void applyRequestMetadata(RequestInfo requestInfo, Executor appExecutor, MetadataApplier applier) {
      applier.apply(new Metadata());
    }
  }
}
