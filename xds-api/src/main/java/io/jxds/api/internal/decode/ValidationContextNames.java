package io.jxds.api.internal.decode;

import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateValidationContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import java.util.ArrayList;
import java.util.List;

/**
 * The names an {@code UpstreamTlsContext}'s validation context refers to (certificate-provider
 * instances and SDS secrets), kept as data for the balancer: jxds does not resolve them itself.
 */
final class ValidationContextNames {
  private ValidationContextNames() {}

  // Control planes still send the deprecated certificate-provider fields; their names are data too.
  @SuppressWarnings("deprecation")
  static List<String> of(UpstreamTlsContext context) {
    CommonTlsContext common = context.getCommonTlsContext();
    List<String> names = new ArrayList<>(2);
    switch (common.getValidationContextTypeCase()) {
      case VALIDATION_CONTEXT:
        addCaInstance(common.getValidationContext(), names);
        break;
      case VALIDATION_CONTEXT_SDS_SECRET_CONFIG:
        add(common.getValidationContextSdsSecretConfig().getName(), names);
        break;
      case COMBINED_VALIDATION_CONTEXT:
        CommonTlsContext.CombinedCertificateValidationContext combined =
            common.getCombinedValidationContext();
        addCaInstance(combined.getDefaultValidationContext(), names);
        add(combined.getValidationContextSdsSecretConfig().getName(), names);
        add(combined.getValidationContextCertificateProviderInstance().getInstanceName(), names);
        add(combined.getValidationContextCertificateProvider().getName(), names);
        break;
      case VALIDATION_CONTEXT_CERTIFICATE_PROVIDER:
        add(common.getValidationContextCertificateProvider().getName(), names);
        break;
      case VALIDATION_CONTEXT_CERTIFICATE_PROVIDER_INSTANCE:
        add(common.getValidationContextCertificateProviderInstance().getInstanceName(), names);
        break;
      default:
        break;
    }
    return names;
  }

  private static void addCaInstance(CertificateValidationContext context, List<String> names) {
    add(context.getCaCertificateProviderInstance().getInstanceName(), names);
  }

  private static void add(String name, List<String> names) {
    if (!name.isEmpty()) {
      names.add(name);
    }
  }
}
