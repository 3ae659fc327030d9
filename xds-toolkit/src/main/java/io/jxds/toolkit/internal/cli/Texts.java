package io.jxds.toolkit.internal.cli;

import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.UpstreamTlsSettings;
import io.jxds.toolkit.Fraction;

/** How the CLI names policies, TLS settings and shares, in tables and JSON alike. */
final class Texts {
  /** {@code 37.500%}: a share in percent. */
  static final FormatCache PERCENT = new FormatCache("%.3f%%");

  private Texts() {}

  /** The policy as envoy names it, with its settings. */
  static String policy(LbPolicy p) {
    if (p instanceof LbPolicy.LeastRequest lr) {
      return "least_request{choice_count=" + lr.choiceCount() + ", active_request_bias=" + lr.activeRequestBias() + "}";
    }
    if (p instanceof LbPolicy.RingHash rh) {
      return "ring_hash{minimum_ring_size=" + rh.minRingSize() + ", maximum_ring_size=" + rh.maxRingSize() + "}";
    }
    if (p instanceof LbPolicy.Maglev m) {
      return "maglev{table_size=" + m.tableSize() + "}";
    }
    return "round_robin";
  }

  static String tls(UpstreamTlsSettings t) {
    StringBuilder s = new StringBuilder(t.identityCertificate().isPresent() ? "mutual TLS" : "TLS");
    t.identityCertificate().ifPresent(c -> s.append(", identity ").append(c.instanceName()));
    s.append(t.systemRootCertificates() ? ", system roots"
        : ", roots " + t.rootCertificates().map(c -> c.instanceName()).orElse(""));
    if (!t.subjectAltNameMatchers().isEmpty()) {
      s.append(", SAN ").append(t.subjectAltNameMatchers());
    }
    if (!t.sni().isEmpty()) {
      s.append(", sni ").append(t.sni()).append(" (not sent)");
    }
    return s.toString();
  }

  /** {@code 37.500% (3/8)}. */
  static String share(Fraction f) {
    return PERCENT.format(f.toDouble() * 100) + " (" + f + ")";
  }
}
