package io.jxds.balancer.internal.resolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.NameResolverProvider;
import io.grpc.NameResolverRegistry;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Which resolver serves {@code xds:} when grpc-xds is on the class path too (it is, in this
 * module's tests): jxds's, by gRPC's own order among equal priorities, without taking the default
 * scheme from DNS.
 */
class XdsNameResolverProviderTest {
  @Test
  void grpcXdsIsOnTheClassPathSoTheCheckMeansSomething() {
    assertThat(ServiceLoader.load(NameResolverProvider.class).stream()
        .map(provider -> provider.type().getName()).collect(Collectors.toList()))
        .contains("io.grpc.xds.XdsNameResolverProvider", XdsNameResolverProvider.class.getName());
  }

  @Test
  void jxdsServesTheXdsSchemeWhenGrpcXdsIsOnTheClassPath() {
    assertThat(NameResolverRegistry.getDefaultRegistry().getProviderForScheme("xds"))
        .isInstanceOf(XdsNameResolverProvider.class);
  }

  @Test
  void jxdsHasASchemeOfItsOwn() {
    assertThat(NameResolverRegistry.getDefaultRegistry().getProviderForScheme("jxds"))
        .isInstanceOf(JxdsNameResolverProvider.class);
  }

  @Test
  void aTargetWithoutASchemeStaysDns() {
    assertThat(NameResolverRegistry.getDefaultRegistry().getDefaultScheme()).isEqualTo("dns");
  }

  @Test
  void aTargetWithoutAnAbsolutePathIsRefusedWhenTheChannelIsBuilt() {
    assertThatThrownBy(() -> Grpc.newChannelBuilder("xds:payments", InsecureChannelCredentials.create()).build())
        .hasStackTraceContaining("target xds:payments: expected xds:///NAME or xds://AUTHORITY/NAME");
  }
}
