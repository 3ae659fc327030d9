package io.jxds.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.NameResolver;
import io.grpc.NameResolverRegistry;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.balancer.internal.ClusterPolicyConfig;
import io.jxds.balancer.internal.ClusterPolicyConfigParser;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class XdsClusterNameResolverProviderTest {
  private final XdsClusterNameResolverProvider provider = new XdsClusterNameResolverProvider();

  @Test
  void resolvesToNoAddressesAndTheXdsClusterConfig() {
    NameResolver resolver = provider.newNameResolver(URI.create("xds-cluster:///payments"), args());
    List<NameResolver.ResolutionResult> results = startCollecting(resolver);

    assertThat(results).hasSize(1);
    assertThat(results.get(0).getAddressesOrError().getValue()).isEmpty();
    assertThat(results.get(0).getServiceConfig().getConfig()).isEqualTo(ClusterPolicyConfig.forCluster("payments"));
    assertThat(resolver.getServiceAuthority()).isEqualTo("payments");
  }

  @Test
  void refreshDeliversTheConfigAgainSoTheBalancerCanRetry() {
    NameResolver resolver = provider.newNameResolver(URI.create("xds-cluster:///payments"), args());
    List<NameResolver.ResolutionResult> results = startCollecting(resolver);

    resolver.refresh();
    resolver.refresh();
    resolver.shutdown();
    resolver.refresh();

    assertThat(results).hasSize(3);
    assertThat(results.get(2).getServiceConfig().getConfig()).isEqualTo(ClusterPolicyConfig.forCluster("payments"));
    assertThat(results.get(2).getAddressesOrError().getValue()).isEmpty();
  }

  /** Starts {@code resolver}; the list collects every result it delivers. */
  private static List<NameResolver.ResolutionResult> startCollecting(NameResolver resolver) {
    List<NameResolver.ResolutionResult> results = new ArrayList<>();
    resolver.start(new NameResolver.Listener2() {
      @Override
      public void onResult(NameResolver.ResolutionResult r) {
        results.add(r);
      }

      @Override
      public void onError(Status error) {
        throw new AssertionError(error.toString());
      }
    });
    return results;
  }

  @Test
  void clusterNamesMayContainSlashes() {
    assertThat(provider.newNameResolver(URI.create("xds-cluster:///xdstp://auth/c/payments"), args())
        .getServiceAuthority()).isEqualTo("xdstp://auth/c/payments");
  }

  @Test
  void percentEscapesInThePathAreDecoded() {
    assertThat(provider.newNameResolver(URI.create("xds-cluster:///outbound%7C8080%7C%7Cecho%2Fx%25"), args())
        .getServiceAuthority()).isEqualTo("outbound|8080||echo/x%");
  }

  @Test
  void targetSplitAtQuestionMarkOrHashIsRejectedNamingTheHelper() {
    // gRPC parses these; without the check the cluster would silently be "a".
    assertThatThrownBy(() -> provider.newNameResolver(URI.create("xds-cluster:///a?b#c"), args()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("target xds-cluster:///a?b#c: a cluster name cannot hold '?' or '#' as is (the target's query"
            + " and fragment start there); build the target with XdsClusterPolicy.target(\"a?b#c\"), which"
            + " percent-encodes them");
    assertThatThrownBy(() -> provider.newNameResolver(URI.create("xds-cluster:///a#b"), args()))
        .hasMessageContaining("XdsClusterPolicy.target(\"a#b\")");
  }

  @Test
  void emptyClusterNameIsRejected() {
    assertThatThrownBy(() -> provider.newNameResolver(URI.create("xds-cluster:///"), args()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("xds-cluster:///CLUSTER_NAME");
  }

  @Test
  void otherSchemesAreNotOurs() {
    assertThat(provider.newNameResolver(URI.create("dns:///payments"), args())).isNull();
  }

  @Test
  void isRegisteredButNeverTheDefaultScheme() {
    // A scheme-less target (an ADS server_uri like 127.0.0.1:18000) must resolve through DNS, or
    // the ADS channel would itself ask for xds_cluster.
    assertThat(NameResolverRegistry.getDefaultRegistry().getDefaultScheme()).isEqualTo("dns");
    assertThat(NameResolverRegistry.getDefaultRegistry().asFactory().getDefaultScheme()).isEqualTo("dns");
    assertThat(java.util.ServiceLoader.load(io.grpc.NameResolverProvider.class))
        .anySatisfy(p -> assertThat(p).isInstanceOf(XdsClusterNameResolverProvider.class));
  }

  private static NameResolver.Args args() {
    return NameResolver.Args.newBuilder()
        .setDefaultPort(443)
        .setProxyDetector(address -> null)
        .setSynchronizationContext(new SynchronizationContext((t, e) -> {
          throw new AssertionError(e);
        }))
        .setServiceConfigParser(new NameResolver.ServiceConfigParser() {
          @Override
          @SuppressWarnings("unchecked")
          public NameResolver.ConfigOrError parseServiceConfig(Map<String, ?> rawServiceConfig) {
            List<Map<String, ?>> lb = (List<Map<String, ?>>) rawServiceConfig.get("loadBalancingConfig");
            return ClusterPolicyConfigParser.parse((Map<String, ?>) lb.get(0).get(XdsClusterPolicy.POLICY_NAME));
          }
        })
        .build();
  }
}
