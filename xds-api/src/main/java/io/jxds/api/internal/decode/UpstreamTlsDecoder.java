package io.jxds.api.internal.decode;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.TransportSocket;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateProviderPluginInstance;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateValidationContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.CertificateProviderInstance;
import io.jxds.api.model.SubjectAltNameMatcher;
import io.jxds.api.model.UpstreamTlsSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Validates a Cluster's {@code transport_socket} into {@link UpstreamTlsSettings} by gRFC A29's
 * rules (and A82's {@code system_root_certs}). Every broken rule is a NACK naming the field:
 *
 * <ul>
 *   <li>{@code name} is {@code envoy.transport_sockets.tls}, {@code typed_config} an
 *       {@code UpstreamTlsContext} with a {@code common_tls_context};
 *   <li>certificates come from certificate-provider instances only: SDS secret configs, inline
 *       {@code tls_certificates}, the old {@code CertificateProvider} fields, {@code tls_params},
 *       {@code custom_handshaker} and {@code custom_tls_certificate_selector} are rejected; the
 *       client certificate is {@code tls_certificate_provider_instance} or the older
 *       {@code tls_certificate_certificate_provider_instance};
 *   <li>roots are {@code ca_certificate_provider_instance} of {@code validation_context} or of
 *       {@code combined_validation_context.default_validation_context}, or the older
 *       {@code combined_validation_context.validation_context_certificate_provider_instance}, or
 *       {@code system_root_certs}; one of them is required. The top-level
 *       {@code validation_context_certificate_provider_instance} is rejected, as in gRPC;
 *   <li>the validation context may not ask for checks gRPC does not make:
 *       {@code verify_certificate_spki}, {@code verify_certificate_hash},
 *       {@code require_signed_certificate_timestamp}, {@code crl}, {@code custom_validator_config},
 *       {@code match_typed_subject_alt_names};
 *   <li>{@code match_subject_alt_names}: exact (an IP literal is kept in canonical form), prefix,
 *       suffix, contains (non-empty) or safe_regex (one RE2 accepts, compiled here once), each
 *       with {@code ignore_case};
 *   <li>{@code auto_host_sni} and {@code auto_sni_san_validation} are rejected: jxds cannot set
 *       the SNI of a connection through public gRPC API, and would silently skip the check;
 *   <li>when the bootstrap's {@code certificate_providers} are known (the client checks; the
 *       decoder alone cannot), every instance name must be one of them.
 * </ul>
 */
final class UpstreamTlsDecoder {
  static final String TLS_SOCKET = "envoy.transport_sockets.tls";
  static final String UPSTREAM_TLS_TYPE_URL =
      "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext";
  private static final String KIND = ClusterDecoder.KIND;
  private static final String CONTEXT = "transport_socket.typed_config.";
  private static final String COMMON = CONTEXT + "common_tls_context.";

  private UpstreamTlsDecoder() {}

  /**
   * @param knownInstances the bootstrap's certificate-provider instance names, or empty when the
   *     caller does not know the bootstrap (then names are not checked)
   */
  static Optional<UpstreamTlsSettings> decode(Cluster cluster, String name, Optional<Set<String>> knownInstances)
      throws XdsResourceException {
    if (!cluster.hasTransportSocket()) {
      return Optional.empty();
    }
    TransportSocket socket = cluster.getTransportSocket();
    if (!TLS_SOCKET.equals(socket.getName())) {
      throw Nack.of(KIND, name, "transport_socket.name must be " + TLS_SOCKET, Nack.quote(socket.getName()));
    }
    if (!socket.hasTypedConfig()) {
      throw Nack.of(KIND, name, "transport_socket.typed_config must be an UpstreamTlsContext", "unset");
    }
    Any config = socket.getTypedConfig();
    if (!UPSTREAM_TLS_TYPE_URL.equals(config.getTypeUrl())) {
      throw Nack.of(
          KIND, name, "transport_socket.typed_config must be an UpstreamTlsContext", Nack.quote(config.getTypeUrl()));
    }
    UpstreamTlsContext context;
    try {
      context = UpstreamTlsContext.parseFrom(config.getValue());
    } catch (InvalidProtocolBufferException e) {
      throw new XdsResourceException(
          name,
          "cluster " + Nack.quote(name)
              + ": transport_socket.typed_config must be an UpstreamTlsContext, got bytes that do not parse: "
              + e.getMessage(),
          e);
    }
    UpstreamTlsSettings settings = settings(context, name);
    if (knownInstances.isPresent()) {
      checkKnown(settings.identityCertificate(), "tls_certificate_provider_instance", knownInstances.get(), name);
      checkKnown(settings.rootCertificates(), "ca_certificate_provider_instance", knownInstances.get(), name);
    }
    return Optional.of(settings);
  }

  private static UpstreamTlsSettings settings(UpstreamTlsContext context, String name) throws XdsResourceException {
    if (context.getAutoHostSni()) {
      throw unsupported(name, CONTEXT + "auto_host_sni", "true");
    }
    if (context.getAutoSniSanValidation()) {
      throw unsupported(name, CONTEXT + "auto_sni_san_validation", "true");
    }
    if (!context.hasCommonTlsContext()) {
      throw Nack.of(KIND, name, CONTEXT + "common_tls_context is required", "unset");
    }
    CommonTlsContext common = context.getCommonTlsContext();
    rejectUnsupportedCommonFields(common, name);
    Optional<CertificateProviderInstance> identity = identity(common, name);
    Optional<CertificateValidationContext> validation = validationContext(common);
    if (validation.isPresent()) {
      checkValidationContext(validation.get(), validationPath(common), name);
    }
    Optional<CertificateProviderInstance> roots = roots(common, name);
    boolean systemRoots = roots.isEmpty() && validation.isPresent() && validation.get().hasSystemRootCerts();
    if (roots.isEmpty() && !systemRoots) {
      throw Nack.of(
          KIND,
          name,
          COMMON + "validation_context: ca_certificate_provider_instance or system_root_certs is required",
          validation.isPresent() && validation.get().hasTrustedCa() ? "trusted_ca only" : "neither");
    }
    List<SubjectAltNameMatcher> matchers = new ArrayList<>();
    if (validation.isPresent()) {
      // gRFC A29 reads match_subject_alt_names, deprecated in envoy for match_typed_subject_alt_names.
      @SuppressWarnings("deprecation")
      List<StringMatcher> list = validation.get().getMatchSubjectAltNamesList();
      for (int i = 0; i < list.size(); i++) {
        matchers.add(matcher(list.get(i), validationPath(common) + "match_subject_alt_names[" + i + "]", name));
      }
    }
    return new UpstreamTlsSettings(context.getSni(), identity, roots, systemRoots, matchers);
  }

  // The old CertificateProvider fields are read for nothing but this rejection.
  @SuppressWarnings("deprecation")
  private static void rejectUnsupportedCommonFields(CommonTlsContext common, String name)
      throws XdsResourceException {
    if (common.hasCustomHandshaker()) {
      throw unsupported(name, COMMON + "custom_handshaker", "set");
    }
    if (common.hasTlsParams()) {
      throw unsupported(name, COMMON + "tls_params", "set");
    }
    if (common.hasCustomTlsCertificateSelector()) {
      throw unsupported(name, COMMON + "custom_tls_certificate_selector", "set");
    }
    if (common.hasValidationContextSdsSecretConfig()) {
      throw unsupported(
          name, COMMON + "validation_context_sds_secret_config",
          Nack.quote(common.getValidationContextSdsSecretConfig().getName()));
    }
    if (common.hasValidationContextCertificateProvider()) {
      throw unsupported(name, COMMON + "validation_context_certificate_provider", "set");
    }
    if (common.hasValidationContextCertificateProviderInstance()) {
      throw unsupported(
          name, COMMON + "validation_context_certificate_provider_instance",
          Nack.quote(common.getValidationContextCertificateProviderInstance().getInstanceName()));
    }
    if (common.getTlsCertificateSdsSecretConfigsCount() > 0) {
      throw unsupported(
          name, COMMON + "tls_certificate_sds_secret_configs",
          Nack.quote(common.getTlsCertificateSdsSecretConfigs(0).getName()));
    }
    if (common.getTlsCertificatesCount() > 0) {
      throw unsupported(name, COMMON + "tls_certificates", common.getTlsCertificatesCount() + " entries");
    }
    if (common.hasTlsCertificateCertificateProvider()) {
      throw unsupported(name, COMMON + "tls_certificate_certificate_provider", "set");
    }
    if (common.hasCombinedValidationContext()) {
      CommonTlsContext.CombinedCertificateValidationContext combined = common.getCombinedValidationContext();
      String path = COMMON + "combined_validation_context.";
      if (combined.hasValidationContextSdsSecretConfig()) {
        throw unsupported(
            name, path + "validation_context_sds_secret_config",
            Nack.quote(combined.getValidationContextSdsSecretConfig().getName()));
      }
      if (combined.hasValidationContextCertificateProvider()) {
        throw unsupported(name, path + "validation_context_certificate_provider", "set");
      }
    }
  }

  // tls_certificate_certificate_provider_instance is the older form istiod still sends.
  @SuppressWarnings("deprecation")
  private static Optional<CertificateProviderInstance> identity(CommonTlsContext common, String name)
      throws XdsResourceException {
    if (common.hasTlsCertificateProviderInstance()) {
      return Optional.of(instance(
          common.getTlsCertificateProviderInstance(), COMMON + "tls_certificate_provider_instance", name));
    }
    if (common.hasTlsCertificateCertificateProviderInstance()) {
      CommonTlsContext.CertificateProviderInstance old = common.getTlsCertificateCertificateProviderInstance();
      return Optional.of(instance(
          old.getInstanceName(), old.getCertificateName(),
          COMMON + "tls_certificate_certificate_provider_instance", name));
    }
    return Optional.empty();
  }

  private static Optional<CertificateValidationContext> validationContext(CommonTlsContext common) {
    if (common.hasValidationContext()) {
      return Optional.of(common.getValidationContext());
    }
    if (common.hasCombinedValidationContext() && common.getCombinedValidationContext().hasDefaultValidationContext()) {
      return Optional.of(common.getCombinedValidationContext().getDefaultValidationContext());
    }
    return Optional.empty();
  }

  private static String validationPath(CommonTlsContext common) {
    return common.hasValidationContext()
        ? COMMON + "validation_context."
        : COMMON + "combined_validation_context.default_validation_context.";
  }

  // gRFC A29 still honours the deprecated validation_context_certificate_provider_instance.
  @SuppressWarnings("deprecation")
  private static Optional<CertificateProviderInstance> roots(CommonTlsContext common, String name)
      throws XdsResourceException {
    Optional<CertificateValidationContext> validation = validationContext(common);
    if (validation.isPresent() && validation.get().hasCaCertificateProviderInstance()) {
      return Optional.of(instance(
          validation.get().getCaCertificateProviderInstance(),
          validationPath(common) + "ca_certificate_provider_instance", name));
    }
    if (common.hasCombinedValidationContext()
        && common.getCombinedValidationContext().hasValidationContextCertificateProviderInstance()) {
      CommonTlsContext.CertificateProviderInstance old =
          common.getCombinedValidationContext().getValidationContextCertificateProviderInstance();
      return Optional.of(instance(
          old.getInstanceName(), old.getCertificateName(),
          COMMON + "combined_validation_context.validation_context_certificate_provider_instance", name));
    }
    return Optional.empty();
  }

  private static void checkValidationContext(CertificateValidationContext v, String path, String name)
      throws XdsResourceException {
    if (v.getVerifyCertificateSpkiCount() > 0) {
      throw unsupported(name, path + "verify_certificate_spki", v.getVerifyCertificateSpkiCount() + " entries");
    }
    if (v.getVerifyCertificateHashCount() > 0) {
      throw unsupported(name, path + "verify_certificate_hash", v.getVerifyCertificateHashCount() + " entries");
    }
    if (v.hasRequireSignedCertificateTimestamp()) {
      throw unsupported(name, path + "require_signed_certificate_timestamp", "set");
    }
    if (v.hasCrl()) {
      throw unsupported(name, path + "crl", "set");
    }
    if (v.hasCustomValidatorConfig()) {
      throw unsupported(name, path + "custom_validator_config", Nack.quote(v.getCustomValidatorConfig().getName()));
    }
    if (v.getMatchTypedSubjectAltNamesCount() > 0) {
      throw unsupported(
          name, path + "match_typed_subject_alt_names", v.getMatchTypedSubjectAltNamesCount() + " entries");
    }
  }

  private static SubjectAltNameMatcher matcher(StringMatcher m, String path, String name)
      throws XdsResourceException {
    boolean ignoreCase = m.getIgnoreCase();
    switch (m.getMatchPatternCase()) {
      case EXACT:
        return new SubjectAltNameMatcher(SubjectAltNameMatcher.Kind.EXACT, m.getExact(), ignoreCase);
      case PREFIX:
        return new SubjectAltNameMatcher(
            SubjectAltNameMatcher.Kind.PREFIX, nonEmpty(m.getPrefix(), path, "prefix", name), ignoreCase);
      case SUFFIX:
        return new SubjectAltNameMatcher(
            SubjectAltNameMatcher.Kind.SUFFIX, nonEmpty(m.getSuffix(), path, "suffix", name), ignoreCase);
      case CONTAINS:
        return new SubjectAltNameMatcher(
            SubjectAltNameMatcher.Kind.CONTAINS, nonEmpty(m.getContains(), path, "contains", name), ignoreCase);
      case SAFE_REGEX:
        return SubjectAltNameMatcher.safeRegex(
            SafeRegexDecoder.decode(m.getSafeRegex(), KIND, name, path + ".safe_regex"));
      case CUSTOM:
        throw unsupported(name, path + ".custom", Nack.quote(m.getCustom().getName()));
      default:
        throw Nack.of(KIND, name, path + " must set exact, prefix, suffix, contains or safe_regex", "none");
    }
  }

  private static String nonEmpty(String value, String path, String field, String name) throws XdsResourceException {
    if (value.isEmpty()) {
      throw Nack.of(KIND, name, path + "." + field + " must not be empty", "\"\"");
    }
    return value;
  }

  private static CertificateProviderInstance instance(
      CertificateProviderPluginInstance p, String path, String name) throws XdsResourceException {
    return instance(p.getInstanceName(), p.getCertificateName(), path, name);
  }

  private static CertificateProviderInstance instance(
      String instanceName, String certificateName, String path, String name) throws XdsResourceException {
    if (instanceName.isEmpty()) {
      throw Nack.of(KIND, name, path + ".instance_name must not be empty", "\"\"");
    }
    return new CertificateProviderInstance(instanceName, certificateName);
  }

  private static void checkKnown(
      Optional<CertificateProviderInstance> instance, String field, Set<String> known, String name)
      throws XdsResourceException {
    if (instance.isPresent() && !known.contains(instance.get().instanceName())) {
      throw Nack.of(
          KIND,
          name,
          field + " must name one of the bootstrap's certificate_providers " + new TreeSet<>(known),
          Nack.quote(instance.get().instanceName()));
    }
  }

  private static XdsResourceException unsupported(String name, String field, String got) {
    return Nack.of(KIND, name, field + " must be unset (gRPC does not support it)", got);
  }
}
