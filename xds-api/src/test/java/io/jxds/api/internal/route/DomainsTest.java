package io.jxds.api.internal.route;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DomainsTest {
  @Test
  void domainIsLowerCasedAndLosesOneTrailingDot() {
    assertThat(Domains.normalizeDomain("Echo.NS.svc.cluster.local.")).isEqualTo("echo.ns.svc.cluster.local");
    assertThat(Domains.normalizeDomain("echo.ns.svc.cluster.local.:8080")).isEqualTo("echo.ns.svc.cluster.local:8080");
    assertThat(Domains.normalizeDomain("*.example.com.")).isEqualTo("*.example.com");
    assertThat(Domains.normalizeDomain("10.0.0.1:80")).isEqualTo("10.0.0.1:80");
    assertThat(Domains.normalizeDomain("[2001:DB8::1]:443")).isEqualTo("[2001:db8::1]:443");
  }

  @Test
  void malformedDomainsAreNull() {
    for (String bad : new String[] {"", ".", "..", ".x", "x..", "x..:80", ":80", "a*b", "**", "*a*", "*.x*"}) {
      assertThat(Domains.normalizeDomain(bad)).as(bad).isNull();
    }
  }

  @Test
  void authorityIsNormalizedAndNeverRefused() {
    assertThat(Domains.normalizeAuthority("Echo.")).isEqualTo("echo");
    assertThat(Domains.normalizeAuthority("echo.:8080")).isEqualTo("echo:8080");
    assertThat(Domains.normalizeAuthority("")).isEqualTo("");
    assertThat(Domains.normalizeAuthority(".")).isEqualTo("");
    assertThat(Domains.normalizeAuthority("a:b:c")).isEqualTo("a:b:c");
  }
}
