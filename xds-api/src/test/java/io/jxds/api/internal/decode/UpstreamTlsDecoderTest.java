package io.jxds.api.internal.decode;

import static io.jxds.testing.XdsResources.cluster;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.TypedExtensionConfig;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateProviderPluginInstance;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateValidationContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.SdsSecretConfig;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.TlsCertificate;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.TlsParameters;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatcher;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.CertificateProviderInstance;
import io.jxds.api.model.SubjectAltNameMatcher;
import io.jxds.api.model.UpstreamTlsSettings;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** gRFC A29's UpstreamTlsContext rules: every NACK, and the valid forms next to them. */
@SuppressWarnings("deprecation") // gRFC A29's match_subject_alt_names is deprecated in envoy's protos
class UpstreamTlsDecoderTest {
  private static final String COMMON = "transport_socket.typed_config.common_tls_context.";
  private static final CertificateProviderInstance DEFAULT = new CertificateProviderInstance("default", "");

  @Test
  void currentFormsDecodeToMutualTls() throws Exception {
    UpstreamTlsSettings tls = decode(valid().setSni("payments.example.com").build());
    assertThat(tls).isEqualTo(new UpstreamTlsSettings(
        "payments.example.com", Optional.of(DEFAULT), Optional.of(DEFAULT), false,
        List.of(new SubjectAltNameMatcher(SubjectAltNameMatcher.Kind.EXACT, "payments.example.com", false))));
  }

  // istiod's form: the older certificate-provider fields under combined_validation_context.
  @Test
  @SuppressWarnings("deprecation")
  void olderIstioFormsDecodeToTheSameSettings() throws Exception {
    UpstreamTlsContext istio = UpstreamTlsContext.newBuilder()
        .setCommonTlsContext(CommonTlsContext.newBuilder()
            .setTlsCertificateCertificateProviderInstance(CommonTlsContext.CertificateProviderInstance.newBuilder()
                .setInstanceName("default").setCertificateName("default"))
            .setCombinedValidationContext(CommonTlsContext.CombinedCertificateValidationContext.newBuilder()
                .setDefaultValidationContext(CertificateValidationContext.newBuilder()
                    .addMatchSubjectAltNames(StringMatcher.newBuilder().setPrefix("spiffe://cluster.local/")))
                .setValidationContextCertificateProviderInstance(
                    CommonTlsContext.CertificateProviderInstance.newBuilder()
                        .setInstanceName("default").setCertificateName("ROOTCA"))))
        .build();
    assertThat(decode(istio)).isEqualTo(new UpstreamTlsSettings(
        "", Optional.of(new CertificateProviderInstance("default", "default")),
        Optional.of(new CertificateProviderInstance("default", "ROOTCA")), false,
        List.of(new SubjectAltNameMatcher(SubjectAltNameMatcher.Kind.PREFIX, "spiffe://cluster.local/", false))));
    UpstreamTlsContext combinedCurrent = UpstreamTlsContext.newBuilder()
        .setCommonTlsContext(CommonTlsContext.newBuilder()
            .setCombinedValidationContext(CommonTlsContext.CombinedCertificateValidationContext.newBuilder()
                .setDefaultValidationContext(CertificateValidationContext.newBuilder()
                    .setCaCertificateProviderInstance(instance("roots")))))
        .build();
    assertThat(decode(combinedCurrent).rootCertificates()).contains(new CertificateProviderInstance("roots", ""));
  }

  @Test
  void systemRootCertsServeAsRoots() throws Exception {
    UpstreamTlsContext context = UpstreamTlsContext.newBuilder()
        .setCommonTlsContext(CommonTlsContext.newBuilder()
            .setValidationContext(CertificateValidationContext.newBuilder()
                .setSystemRootCerts(CertificateValidationContext.SystemRootCerts.getDefaultInstance())))
        .build();
    UpstreamTlsSettings tls = decode(context);
    assertThat(tls.systemRootCertificates()).isTrue();
    assertThat(tls.rootCertificates()).isEmpty();
    assertThat(tls.identityCertificate()).isEmpty();
  }

  @Test
  void everySanMatcherKindDecodes() throws Exception {
    UpstreamTlsContext context = valid(v -> v.clearMatchSubjectAltNames()
        .addMatchSubjectAltNames(StringMatcher.newBuilder().setExact("a").setIgnoreCase(true))
        .addMatchSubjectAltNames(StringMatcher.newBuilder().setPrefix("b"))
        .addMatchSubjectAltNames(StringMatcher.newBuilder().setSuffix("c"))
        .addMatchSubjectAltNames(StringMatcher.newBuilder().setContains("d"))
        .addMatchSubjectAltNames(StringMatcher.newBuilder().setSafeRegex(RegexMatcher.newBuilder().setRegex("e+"))))
        .build();
    assertThat(decode(context).subjectAltNameMatchers()).containsExactly(
        new SubjectAltNameMatcher(SubjectAltNameMatcher.Kind.EXACT, "a", true),
        new SubjectAltNameMatcher(SubjectAltNameMatcher.Kind.PREFIX, "b", false),
        new SubjectAltNameMatcher(SubjectAltNameMatcher.Kind.SUFFIX, "c", false),
        new SubjectAltNameMatcher(SubjectAltNameMatcher.Kind.CONTAINS, "d", false),
        new SubjectAltNameMatcher(SubjectAltNameMatcher.Kind.SAFE_REGEX, "e+", false));
  }

  @Test
  void missingCommonTlsContextIsRejected() {
    assertNack(UpstreamTlsContext.getDefaultInstance(),
        "transport_socket.typed_config.common_tls_context is required, got unset");
  }

  @Test
  void missingRootsAreRejected() {
    assertNack(UpstreamTlsContext.newBuilder()
            .setCommonTlsContext(CommonTlsContext.newBuilder().setTlsCertificateProviderInstance(instance("default")))
            .build(),
        COMMON + "validation_context: ca_certificate_provider_instance or system_root_certs is required, got neither");
    assertNack(valid(v -> v.clearCaCertificateProviderInstance()
            .setTrustedCa(io.envoyproxy.envoy.config.core.v3.DataSource.newBuilder().setFilename("/ca.pem")))
            .build(),
        COMMON + "validation_context: ca_certificate_provider_instance or system_root_certs is required, "
            + "got trusted_ca only");
  }

  @Test
  void sdsSecretConfigsAreRejected() {
    assertNack(common(c -> c.clearValidationContext()
            .setValidationContextSdsSecretConfig(SdsSecretConfig.newBuilder().setName("ROOTCA"))),
        COMMON + "validation_context_sds_secret_config must be unset (gRPC does not support it), got \"ROOTCA\"");
    assertNack(common(c -> c.addTlsCertificateSdsSecretConfigs(SdsSecretConfig.newBuilder().setName("default"))),
        COMMON + "tls_certificate_sds_secret_configs must be unset (gRPC does not support it), got \"default\"");
    assertNack(common(c -> c.clearValidationContext()
            .setCombinedValidationContext(CommonTlsContext.CombinedCertificateValidationContext.newBuilder()
                .setDefaultValidationContext(CertificateValidationContext.newBuilder()
                    .setCaCertificateProviderInstance(instance("default")))
                .setValidationContextSdsSecretConfig(SdsSecretConfig.newBuilder().setName("ROOTCA")))),
        COMMON + "combined_validation_context.validation_context_sds_secret_config must be unset "
            + "(gRPC does not support it), got \"ROOTCA\"");
  }

  @Test
  @SuppressWarnings("deprecation")
  void unsupportedCommonTlsContextFieldsAreRejected() {
    assertNack(common(c -> c.setTlsParams(TlsParameters.getDefaultInstance())),
        COMMON + "tls_params must be unset (gRPC does not support it), got set");
    assertNack(common(c -> c.setCustomHandshaker(TypedExtensionConfig.newBuilder().setName("h"))),
        COMMON + "custom_handshaker must be unset (gRPC does not support it), got set");
    assertNack(common(c -> c.setCustomTlsCertificateSelector(TypedExtensionConfig.newBuilder().setName("s"))),
        COMMON + "custom_tls_certificate_selector must be unset (gRPC does not support it), got set");
    assertNack(common(c -> c.clearTlsCertificateProviderInstance()
            .addTlsCertificates(TlsCertificate.getDefaultInstance())),
        COMMON + "tls_certificates must be unset (gRPC does not support it), got 1 entries");
    assertNack(common(c -> c.setValidationContextCertificateProviderInstance(
            CommonTlsContext.CertificateProviderInstance.newBuilder().setInstanceName("default"))),
        COMMON + "validation_context_certificate_provider_instance must be unset (gRPC does not support it), "
            + "got \"default\"");
    assertNack(common(c -> c.setValidationContextCertificateProvider(
            CommonTlsContext.CertificateProvider.newBuilder().setName("p"))),
        COMMON + "validation_context_certificate_provider must be unset (gRPC does not support it), got set");
    assertNack(common(c -> c.setTlsCertificateCertificateProvider(
            CommonTlsContext.CertificateProvider.newBuilder().setName("p"))),
        COMMON + "tls_certificate_certificate_provider must be unset (gRPC does not support it), got set");
  }

  @Test
  void validationContextChecksGrpcDoesNotMakeAreRejected() {
    String v = COMMON + "validation_context.";
    assertNack(valid(c -> c.addVerifyCertificateSpki("x")).build(),
        v + "verify_certificate_spki must be unset (gRPC does not support it), got 1 entries");
    assertNack(valid(c -> c.addVerifyCertificateHash("x")).build(),
        v + "verify_certificate_hash must be unset (gRPC does not support it), got 1 entries");
    assertNack(valid(c -> c.setRequireSignedCertificateTimestamp(com.google.protobuf.BoolValue.of(true))).build(),
        v + "require_signed_certificate_timestamp must be unset (gRPC does not support it), got set");
    assertNack(valid(c -> c.setCrl(io.envoyproxy.envoy.config.core.v3.DataSource.newBuilder().setFilename("c")))
            .build(),
        v + "crl must be unset (gRPC does not support it), got set");
    assertNack(valid(c -> c.setCustomValidatorConfig(TypedExtensionConfig.newBuilder().setName("spiffe"))).build(),
        v + "custom_validator_config must be unset (gRPC does not support it), got \"spiffe\"");
    assertNack(valid(c -> c.addMatchTypedSubjectAltNames(
            io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.SubjectAltNameMatcher.getDefaultInstance()))
            .build(),
        v + "match_typed_subject_alt_names must be unset (gRPC does not support it), got 1 entries");
  }

  @Test
  void badSanMatchersAreRejected() {
    String m = COMMON + "validation_context.match_subject_alt_names[0]";
    assertNack(valid(c -> c.clearMatchSubjectAltNames()
        .addMatchSubjectAltNames(StringMatcher.newBuilder().setPrefix(""))).build(),
        m + ".prefix must not be empty, got \"\"");
    assertNack(valid(c -> c.clearMatchSubjectAltNames()
        .addMatchSubjectAltNames(StringMatcher.newBuilder().setSuffix(""))).build(),
        m + ".suffix must not be empty, got \"\"");
    assertNack(valid(c -> c.clearMatchSubjectAltNames()
        .addMatchSubjectAltNames(StringMatcher.newBuilder().setContains(""))).build(),
        m + ".contains must not be empty, got \"\"");
    assertNack(valid(c -> c.clearMatchSubjectAltNames().addMatchSubjectAltNames(StringMatcher.getDefaultInstance()))
        .build(), m + " must set exact, prefix, suffix, contains or safe_regex, got none");
    assertNack(valid(c -> c.clearMatchSubjectAltNames().addMatchSubjectAltNames(
            StringMatcher.newBuilder().setSafeRegex(RegexMatcher.newBuilder().setRegex("(")))).build(),
        m + ".safe_regex.regex must be an RE2 regular expression, got \"(\" (error parsing regexp: "
            + "missing closing ): `(`)");
    assertNack(valid(c -> c.clearMatchSubjectAltNames().addMatchSubjectAltNames(
            StringMatcher.newBuilder().setCustom(
                com.github.xds.core.v3.TypedExtensionConfig.newBuilder().setName("x")))).build(),
        m + ".custom must be unset (gRPC does not support it), got \"x\"");
  }

  @Test
  void safeRegexThatRe2RejectsIsNackedNamingTheFieldAndRe2sError() {
    String m = COMMON + "validation_context.match_subject_alt_names[0].safe_regex.regex must be an RE2 regular "
        + "expression, got ";
    assertNack(sanRegex("(a)\\1"), m + "\"(a)\\1\" (error parsing regexp: invalid escape sequence: `\\1`)");
    assertNack(sanRegex("a(?=b)"), m + "\"a(?=b)\" (error parsing regexp: invalid or unsupported Perl syntax: `(?=`)");
    assertNack(sanRegex("(?<=a)b"),
        m + "\"(?<=a)b\" (error parsing regexp: invalid named capture: `(?<=a)b`)");
    assertNack(sanRegex("a++"), m + "\"a++\" (error parsing regexp: invalid nested repetition operator: `++`)");
  }

  // RE2 refuses a regex whose nested counted repetitions multiply past 1000 (RE2/J alone would
  // expand this one into a billion instructions) and one that nests more than 1000 deep.
  @Test
  void safeRegexBeyondRe2sSizeLimitsIsNacked() {
    String m = COMMON + "validation_context.match_subject_alt_names[0].safe_regex.regex must be an RE2 regular "
        + "expression, got ";
    assertNack(sanRegex("((a{1000}){1000}){1000}"), m + "\"((a{1000}){1000}){1000}\" (error parsing regexp: "
        + "invalid repeat count: nested repetitions multiply to more than 1000: `{1000}`)");
    String deep = "(".repeat(1001) + "a" + ")".repeat(1001);
    assertThatThrownBy(() -> ClusterDecoder.decode(cluster("a").upstreamTls(sanRegex(deep)).build()))
        .isInstanceOf(XdsResourceException.class)
        .hasMessageContaining("match_subject_alt_names[0].safe_regex.regex must be an RE2 regular expression")
        .hasMessageEndingWith("(error parsing regexp: expression nests too deeply: more than 1000 levels)");
  }

  @Test
  void exactIpMatcherDecodesToItsCanonicalForm() throws Exception {
    UpstreamTlsSettings tls = decode(valid(c -> c.clearMatchSubjectAltNames()
        .addMatchSubjectAltNames(StringMatcher.newBuilder().setExact("2001:DB8:0:0::1"))).build());
    assertThat(tls.subjectAltNameMatchers()).extracting(SubjectAltNameMatcher::pattern).containsExactly("2001:db8::1");
  }

  @Test
  void sniOptionsJxdsCannotHonourAreRejected() {
    assertNack(valid().setAutoHostSni(true).build(),
        "transport_socket.typed_config.auto_host_sni must be unset (gRPC does not support it), got true");
    assertNack(valid().setAutoSniSanValidation(true).build(),
        "transport_socket.typed_config.auto_sni_san_validation must be unset (gRPC does not support it), got true");
  }

  @Test
  void emptyInstanceNameIsRejected() {
    assertNack(common(c -> c.setTlsCertificateProviderInstance(instance(""))),
        COMMON + "tls_certificate_provider_instance.instance_name must not be empty, got \"\"");
  }

  @Test
  void instanceNotInTheBootstrapIsRejectedWhenTheBootstrapIsKnown() throws Exception {
    Cluster c = cluster("a").upstreamTls(valid().build()).build();
    assertThat(ClusterDecoder.decode(c, Set.of("default")).upstreamTls()).isPresent();
    assertThatThrownBy(() -> ClusterDecoder.decode(c, Set.of("other", "spare")))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("cluster \"a\": tls_certificate_provider_instance must name one of the bootstrap's "
            + "certificate_providers [other, spare], got \"default\"");
    Cluster rootsOnly = cluster("a").upstreamTls("", "roots").build();
    assertThatThrownBy(() -> ClusterDecoder.decode(rootsOnly, Set.of()))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("cluster \"a\": ca_certificate_provider_instance must name one of the bootstrap's "
            + "certificate_providers [], got \"roots\"");
  }

  private static UpstreamTlsContext.Builder valid() {
    return valid(v -> v);
  }

  private static UpstreamTlsContext.Builder valid(UnaryOperator<CertificateValidationContext.Builder> validation) {
    return UpstreamTlsContext.newBuilder()
        .setCommonTlsContext(CommonTlsContext.newBuilder()
            .setTlsCertificateProviderInstance(instance("default"))
            .setValidationContext(validation.apply(CertificateValidationContext.newBuilder()
                .setCaCertificateProviderInstance(instance("default"))
                .addMatchSubjectAltNames(StringMatcher.newBuilder().setExact("payments.example.com")))));
  }

  private static UpstreamTlsContext sanRegex(String regex) {
    return valid(c -> c.clearMatchSubjectAltNames().addMatchSubjectAltNames(
        StringMatcher.newBuilder().setSafeRegex(RegexMatcher.newBuilder().setRegex(regex)))).build();
  }

  private static UpstreamTlsContext common(UnaryOperator<CommonTlsContext.Builder> change) {
    UpstreamTlsContext.Builder b = valid();
    return b.setCommonTlsContext(change.apply(b.getCommonTlsContext().toBuilder())).build();
  }

  private static CertificateProviderPluginInstance.Builder instance(String name) {
    return CertificateProviderPluginInstance.newBuilder().setInstanceName(name);
  }

  private static UpstreamTlsSettings decode(UpstreamTlsContext context) throws XdsResourceException {
    return ClusterDecoder.decode(cluster("a").upstreamTls(context).build()).upstreamTls().orElseThrow();
  }

  private static void assertNack(UpstreamTlsContext context, String expected) {
    Cluster c = cluster("a").upstreamTls(context).build();
    assertThatThrownBy(() -> ClusterDecoder.decode(c))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("cluster \"a\": " + expected);
  }
}
