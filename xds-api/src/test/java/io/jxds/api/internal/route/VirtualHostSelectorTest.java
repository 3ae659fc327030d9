package io.jxds.api.internal.route;

import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.api.model.route.VirtualHost;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** Virtual host choice by authority (gRFC A27, A28; envoy's {@code VirtualHost.domains}). */
class VirtualHostSelectorTest {
  @Test
  void exactMatchWinsOverEveryWildcard() {
    List<VirtualHost> hosts = List.of(host("any", "*"), host("suffix", "*.example.com"),
        host("prefix", "foo.*"), host("exact", "foo.example.com"));
    assertThat(selected(hosts, "foo.example.com")).isEqualTo("exact");
  }

  @Test
  void suffixBeatsALongerPrefixAsEnvoyRanks() {
    // grpc-java ranks wildcards by length alone and picks "foo.bar.*" here
    List<VirtualHost> hosts = List.of(host("prefix", "foo.bar.*"), host("suffix", "*.com"));
    assertThat(selected(hosts, "foo.bar.com")).isEqualTo("suffix");
  }

  @Test
  void prefixBeatsUniversal() {
    assertThat(selected(List.of(host("any", "*"), host("prefix", "foo.*")), "foo.bar")).isEqualTo("prefix");
  }

  @Test
  void longestWinsWithinAKind() {
    List<VirtualHost> hosts = List.of(host("short", "*.com"), host("long", "*.example.com"));
    assertThat(selected(hosts, "a.example.com")).isEqualTo("long");
    List<VirtualHost> prefixes = List.of(host("short", "foo-*"), host("long", "foo-bar-*"));
    assertThat(selected(prefixes, "foo-bar-1")).isEqualTo("long");
  }

  @Test
  void firstWinsOnATie() {
    List<VirtualHost> hosts = List.of(host("first", "*.a.com"), host("second", "*.b.com", "*.a.com"));
    assertThat(selected(hosts, "x.a.com")).isEqualTo("first");
  }

  @Test
  void wildcardStandsForAtLeastOneCharacter() {
    assertThat(selected(List.of(host("suffix", "*.example.com")), "example.com")).isNull();
    assertThat(selected(List.of(host("suffix", "*.example.com")), "x.example.com")).isEqualTo("suffix");
    assertThat(selected(List.of(host("suffix", "*-prod.example.com")), "api-prod.example.com")).isEqualTo("suffix");
    assertThat(selected(List.of(host("prefix", "foo.*")), "foo.")).isNull();
    assertThat(selected(List.of(host("prefix", "foo.*")), "foo.x")).isEqualTo("prefix");
  }

  @Test
  void matchingIsCaseInsensitive() {
    assertThat(selected(List.of(host("vh", "Foo.Example.COM")), "foo.example.com")).isEqualTo("vh");
    assertThat(selected(List.of(host("vh", "foo.example.com")), "FOO.example.com")).isEqualTo("vh");
  }

  @Test
  void trailingDotIsTheSameName() {
    // istiod 1.28+ lists FQDN. and FQDN.:port; grpc-java throws on them in the channel's context
    List<VirtualHost> hosts = List.of(host("istio", "echo.default.svc.cluster.local.",
        "echo.default.svc.cluster.local.:8080"));
    assertThat(selected(hosts, "echo.default.svc.cluster.local:8080")).isEqualTo("istio");
    assertThat(selected(hosts, "echo.default.svc.cluster.local")).isEqualTo("istio");
    assertThat(selected(List.of(host("plain", "echo.default.svc.cluster.local:8080")),
        "echo.default.svc.cluster.local.:8080")).isEqualTo("plain");
  }

  @Test
  void portIsPartOfTheName() {
    List<VirtualHost> hosts = List.of(host("with port", "echo:8080"), host("without", "echo"));
    assertThat(selected(hosts, "echo:8080")).isEqualTo("with port");
    assertThat(selected(hosts, "echo")).isEqualTo("without");
    assertThat(selected(List.of(host("port wildcard", "*:8080")), "echo:8080")).isEqualTo("port wildcard");
    assertThat(selected(List.of(host("without", "echo")), "echo:9090")).isNull();
  }

  @Test
  void malformedDomainsNeverMatchAndNeverThrow() {
    List<VirtualHost> hosts = List.of(host("bad", "", ".", ".x", "x..", "a*b", "**", "*a*"), host("good", "x"));
    assertThat(selected(hosts, "x")).isEqualTo("good");
    assertThat(selected(hosts, "")).isNull();
    assertThat(selected(hosts, ".")).isNull();
    assertThat(selected(hosts, "a.b")).isNull();
    assertThat(selected(List.of(host("any", "*")), "")).isEqualTo("any");
  }

  @Test
  void ipv6AuthorityKeepsItsPort() {
    List<VirtualHost> hosts = List.of(host("v6", "[::1]:8080"), host("any", "*"));
    assertThat(selected(hosts, "[::1]:8080")).isEqualTo("v6");
    assertThat(selected(hosts, "[::1]:9090")).isEqualTo("any");
  }

  @Test
  void noVirtualHostMeansNoMatch() {
    assertThat(selected(List.of(), "x")).isNull();
  }

  private static @Nullable String selected(List<VirtualHost> hosts, String authority) {
    VirtualHost h = VirtualHostSelector.select(hosts, authority);
    return h == null ? null : h.name();
  }

  private static VirtualHost host(String name, String... domains) {
    return new VirtualHost(name, List.of(domains), List.of());
  }
}
