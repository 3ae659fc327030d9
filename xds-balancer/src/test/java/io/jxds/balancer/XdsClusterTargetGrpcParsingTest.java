package io.jxds.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What gRPC's own target parsing does with {@code xds-cluster:} targets, encoded by
 * {@link XdsClusterPolicy#target} or written by hand. Building a channel creates its name resolver
 * but connects nothing, so the channel's authority (the resolver's cluster) shows what arrived.
 */
class XdsClusterTargetGrpcParsingTest {
  @Test
  void everyNameSurvivesGrpcTargetParsingThroughTheHelper() {
    List<String> names = new ArrayList<>(List.of(
        "outbound|8080||echo.default.svc.cluster.local", "outbound|8080|v1|echo.default.svc.cluster.local",
        ".", "..", "/", "a/../b", "//x", "%41", "%", "\u00e9", "\u65e5\u672c",
        "xdstp://authority/envoy.config.cluster.v3.Cluster/c"));
    for (char c = 0x20; c < 0x7f; c++) {
      names.add("a" + c + "b");
    }
    for (String name : names) {
      ManagedChannel channel =
          Grpc.newChannelBuilder(XdsClusterPolicy.target(name), InsecureChannelCredentials.create()).build();
      try {
        assertThat(channel.authority()).as("cluster %s", name).isEqualTo(name);
      } finally {
        channel.shutdownNow();
      }
    }
  }

  @Test
  void unencodedIstioNameIsRejectedByGrpcBeforeAnyResolverSeesIt() {
    // '|' is not allowed in a URI: gRPC finds no scheme, so no resolver (jxds's included) is asked.
    assertThatThrownBy(() -> Grpc.newChannelBuilder(
            "xds-cluster:///outbound|8080||echo.default.svc.cluster.local", InsecureChannelCredentials.create())
        .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Could not find a NameResolverProvider for xds-cluster:///outbound|8080||echo");
  }

  @Test
  void unencodedQuestionMarkFailsTheBuildNamingTheHelper() {
    assertThatThrownBy(() -> Grpc.newChannelBuilder("xds-cluster:///pay?ments", InsecureChannelCredentials.create())
        .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("XdsClusterPolicy.target(\"pay?ments\")");
  }
}
