package io.jxds.api.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The records refuse values the decoders can never produce. */
class ModelTest {
  private static final long MAX = 0xFFFF_FFFFL;

  private static InetSocketAddress ip(String literal, int port) throws Exception {
    return new InetSocketAddress(InetAddress.getByName(literal), port);
  }

  @Test
  void endpointWeightMustBeUnsigned32BitAndNonZero() throws Exception {
    InetSocketAddress a = ip("10.0.0.1", 80);
    assertThat(new Endpoint(a, HealthStatus.HEALTHY, MAX, "").weight()).isEqualTo(MAX);
    assertThatThrownBy(() -> new Endpoint(a, HealthStatus.HEALTHY, 0, ""))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("endpoint weight");
    assertThatThrownBy(() -> new Endpoint(a, HealthStatus.HEALTHY, MAX + 1, ""))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void endpointAddressMustBeResolvedLiteral() {
    assertThatThrownBy(() -> Endpoint.of(InetSocketAddress.createUnresolved("example.com", 80)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("IP literal");
  }

  @Test
  void endpointToStringBracketsIpv6() throws Exception {
    assertThat(new Endpoint(ip("::1", 80), HealthStatus.DRAINING, 2, "h").toString())
        .isEqualTo("[0:0:0:0:0:0:0:1]:80 DRAINING w=2 host=h");
    assertThat(Endpoint.of(ip("10.0.0.1", 80)).toString()).isEqualTo("10.0.0.1:80 HEALTHY w=1");
  }

  @Test
  void endpointAddressesArePrimaryThenAdditionalAndMustBeLiterals() throws Exception {
    Endpoint dual = new Endpoint(ip("10.0.0.1", 80), HealthStatus.HEALTHY, 3, "", "", List.of(ip("::1", 80)));
    assertThat(dual.addresses()).containsExactly(ip("10.0.0.1", 80), ip("::1", 80));
    assertThat(dual.toString()).isEqualTo("10.0.0.1:80,[0:0:0:0:0:0:0:1]:80 HEALTHY w=3");
    assertThat(Endpoint.of(ip("10.0.0.1", 80)).addresses()).containsExactly(ip("10.0.0.1", 80));
    assertThat(dual).isNotEqualTo(new Endpoint(ip("10.0.0.1", 80), HealthStatus.HEALTHY, 3, ""));
    assertThatThrownBy(() -> new Endpoint(ip("10.0.0.1", 80), HealthStatus.HEALTHY, 1, "", "",
        List.of(InetSocketAddress.createUnresolved("example.com", 80))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("IP literal");
  }

  @Test
  void endpointHashKeyDefaultsToEmptyAndShowsInToString() throws Exception {
    assertThat(Endpoint.of(ip("10.0.0.1", 80)).hashKey()).isEmpty();
    assertThat(new Endpoint(ip("10.0.0.1", 80), HealthStatus.HEALTHY, 1, "", "pod-a").toString())
        .isEqualTo("10.0.0.1:80 HEALTHY w=1 hash_key=pod-a");
  }

  @Test
  void lbPolicySettingsAreValidatedInTheirConstructors() {
    assertThat(LbPolicy.LeastRequest.defaults()).isEqualTo(new LbPolicy.LeastRequest(2, 1.0));
    assertThatThrownBy(() -> new LbPolicy.LeastRequest(1, 1.0)).hasMessageContaining("choiceCount must be in [2, 10]");
    assertThatThrownBy(() -> new LbPolicy.LeastRequest(11, 1.0)).hasMessageContaining("got 11");
    assertThatThrownBy(() -> new LbPolicy.LeastRequest(2, -0.5)).hasMessageContaining("activeRequestBias");
    assertThatThrownBy(() -> new LbPolicy.LeastRequest(2, Double.POSITIVE_INFINITY))
        .hasMessageContaining("activeRequestBias");
    assertThat(LbPolicy.RingHash.defaults()).isEqualTo(new LbPolicy.RingHash(1024, 8_388_608));
    assertThatThrownBy(() -> new LbPolicy.RingHash(0, 10)).hasMessageContaining("minRingSize");
    assertThatThrownBy(() -> new LbPolicy.RingHash(20, 10)).hasMessageContaining("maxRingSize");
    assertThatThrownBy(() -> new LbPolicy.RingHash(1, 8_388_609)).hasMessageContaining("maxRingSize");
    assertThat(LbPolicy.Maglev.defaults().tableSize()).isEqualTo(65537);
    assertThatThrownBy(() -> new LbPolicy.Maglev(65536)).hasMessageContaining("prime");
    assertThatThrownBy(() -> new LbPolicy.Maglev(5_000_101)).hasMessageContaining("prime");
    assertThat(LbPolicy.Maglev.isPrime(5_000_011)).isTrue();
    assertThat(LbPolicy.Maglev.isPrime(2)).isTrue();
    assertThat(LbPolicy.Maglev.isPrime(9)).isFalse();
  }

  @Test
  void localityValidatesPriorityAndWeightAndCopiesEndpoints() throws Exception {
    List<Endpoint> eps = new ArrayList<>(List.of(Endpoint.of(ip("10.0.0.1", 80))));
    Locality l = new Locality(LocalityId.EMPTY, 0, 1, eps);
    eps.clear();
    assertThat(l.endpoints()).hasSize(1);
    assertThat(l.hasUsableEndpoint()).isTrue();
    assertThatThrownBy(() -> new Locality(LocalityId.EMPTY, -1, 1, List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("priority");
    assertThatThrownBy(() -> new Locality(LocalityId.EMPTY, 0, 0, List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("locality weight");
    assertThat(new Locality(LocalityId.EMPTY, 0, 1,
            List.of(new Endpoint(ip("10.0.0.1", 80), HealthStatus.UNHEALTHY, 1, ""))).hasUsableEndpoint())
        .isFalse();
  }

  @Test
  void localityIdRefusesNullsAndEqualsByValue() {
    assertThat(new LocalityId("", "", "")).isEqualTo(LocalityId.EMPTY);
    assertThatThrownBy(() -> new LocalityId(null, "", "")).isInstanceOf(NullPointerException.class);
  }

  @Test
  void healthStatusUsability() {
    assertThat(HealthStatus.values()).hasSize(6);
    assertThat(HealthStatus.HEALTHY.isUsable()).isTrue();
    assertThat(HealthStatus.UNKNOWN.isUsable()).isTrue();
    assertThat(HealthStatus.DEGRADED.isUsable()).isFalse();
    assertThat(HealthStatus.DRAINING.isUsable()).isFalse();
  }

  @Test
  void dropOverloadRange() {
    assertThat(new DropOverload("lb", 1_000_000).toString()).isEqualTo("lb=1000000ppm");
    assertThatThrownBy(() -> new DropOverload("lb", 1_000_001)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DropOverload("lb", -1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void endpointsUpdateValidatesAndCountsPriorities() {
    EndpointsUpdate u =
        new EndpointsUpdate(
            "e",
            List.of(new Locality(LocalityId.EMPTY, 0, 1, List.of()), new Locality(new LocalityId("a", "", ""), 2, 1,
                List.of())),
            List.of(),
            140);
    assertThat(u.priorityCount()).isEqualTo(3);
    assertThat(new EndpointsUpdate("e", List.of(), List.of(), 0).priorityCount()).isZero();
    assertThatThrownBy(() -> new EndpointsUpdate("", List.of(), List.of(), 140))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new EndpointsUpdate("e", List.of(), List.of(), -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void clusterUpdateValidates() {
    assertThat(ClusterUpdate.of("c", "e").maxConcurrentRequests()).isEqualTo(1024);
    assertThat(new ClusterUpdate("c", "e", true, MAX, LbPolicy.ROUND_ROBIN, Optional.empty()).maxConcurrentRequests())
        .isEqualTo(MAX);
    assertThatThrownBy(() -> new ClusterUpdate("c", "e", false, MAX + 1, LbPolicy.ROUND_ROBIN, Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ClusterUpdate.of("", "e")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ClusterUpdate.of("c", "")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void upstreamTlsSettingsCopiesMatchersAndNeedsExactlyOneRootSource() {
    List<SubjectAltNameMatcher> matchers =
        new ArrayList<>(List.of(new SubjectAltNameMatcher(SubjectAltNameMatcher.Kind.EXACT, "a", false)));
    UpstreamTlsSettings s = UpstreamTlsSettings.mutual("default", matchers);
    matchers.clear();
    assertThat(s.subjectAltNameMatchers()).hasSize(1);
    assertThatThrownBy(() -> new UpstreamTlsSettings("", Optional.empty(), Optional.empty(), false, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new UpstreamTlsSettings(
            "", Optional.empty(), Optional.of(new CertificateProviderInstance("ca", "")), true, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void subjectAltNameMatcherKinds() {
    assertThat(san(SubjectAltNameMatcher.Kind.EXACT, "a.example.com", false).matches("a.example.com", true)).isTrue();
    assertThat(san(SubjectAltNameMatcher.Kind.EXACT, "a.example.com", false).matches("A.example.com", true))
        .isFalse();
    assertThat(san(SubjectAltNameMatcher.Kind.EXACT, "a.example.com", true).matches("A.example.com", true)).isTrue();
    assertThat(san(SubjectAltNameMatcher.Kind.EXACT, "a.example.com", false).matches("*.example.com", true))
        .isTrue();
    assertThat(san(SubjectAltNameMatcher.Kind.EXACT, "a.b.example.com", false).matches("*.example.com", true))
        .isFalse();
    assertThat(san(SubjectAltNameMatcher.Kind.EXACT, "a.example.com", false).matches("*.example.com", false))
        .isFalse();
    assertThat(san(SubjectAltNameMatcher.Kind.PREFIX, "spiffe://", false).matches("spiffe://td/ns/a", false))
        .isTrue();
    assertThat(san(SubjectAltNameMatcher.Kind.SUFFIX, "/sa/pay", false).matches("spiffe://td/ns/a/sa/pay", false))
        .isTrue();
    assertThat(san(SubjectAltNameMatcher.Kind.CONTAINS, "NS/A", true).matches("spiffe://td/ns/a/sa/p", false))
        .isTrue();
    assertThat(san(SubjectAltNameMatcher.Kind.SAFE_REGEX, "spiffe://td/ns/[a-z]+/sa/p", false)
        .matches("spiffe://td/ns/abc/sa/p", false)).isTrue();
    assertThat(san(SubjectAltNameMatcher.Kind.SAFE_REGEX, "ns/[a-z]+", false).matches("spiffe://td/ns/abc", false))
        .isFalse(); // the whole name must match
    assertThatThrownBy(() -> san(SubjectAltNameMatcher.Kind.SAFE_REGEX, "(", false))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static SubjectAltNameMatcher san(SubjectAltNameMatcher.Kind kind, String pattern, boolean ignoreCase) {
    return new SubjectAltNameMatcher(kind, pattern, ignoreCase);
  }
}
