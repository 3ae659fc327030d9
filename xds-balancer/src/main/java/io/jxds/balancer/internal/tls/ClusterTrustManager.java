package io.jxds.balancer.internal.tls;

import io.jxds.api.CertificateProvider;
import io.jxds.api.internal.IpAddressText;
import io.jxds.api.model.SubjectAltNameMatcher;
import io.jxds.client.internal.tls.ClientSideTrustManager;
import io.jxds.client.internal.tls.RootTrust;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Verifies a backend's certificate for the cluster its channel serves (gRFC A29): the chain must
 * end at the roots of the cluster's certificate provider (or the system's, gRFC A82), and, when
 * the cluster lists {@code match_subject_alt_names}, one of the leaf's subject alternative names
 * must match one of them, IP addresses compared and reported in canonical text form (RFC 5952).
 * The channel's authority is not checked against the certificate: the SAN matchers take its
 * place, as in gRPC. Every refusal names the cluster and what did not match, and becomes the
 * RPCs' UNAVAILABLE status. Nothing is ever skipped: without settings for the connection, the
 * handshake fails.
 */
final class ClusterTrustManager extends ClientSideTrustManager {
  private final ClusterTlsRegistry registry;
  /** The JVM's PKIX check for each provider's current roots, rebuilt when they rotate. */
  private final Map<CertificateProvider, Verifier> verifiers = new ConcurrentHashMap<>();
  private volatile X509ExtendedTrustManager system;

  ClusterTrustManager(ClusterTlsRegistry registry) {
    this.registry = registry;
  }

  ClusterTlsRegistry registry() {
    return registry;
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    if (engine == null) {
      throw new CertificateException("XdsClusterCredentials: no SSL engine to tell which cluster this is");
    }
    check(chain, authType, engine.getPeerHost(), engine.getPeerPort());
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    SSLSession session = socket instanceof SSLSocket ssl ? ssl.getHandshakeSession() : null;
    if (session == null) {
      throw new CertificateException("XdsClusterCredentials: no handshake session to tell which cluster this is");
    }
    check(chain, authType, session.getPeerHost(), session.getPeerPort());
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    throw new CertificateException("XdsClusterCredentials: no SSL engine to tell which cluster this is");
  }

  private void check(X509Certificate[] chain, String authType, String host, int port) throws CertificateException {
    Optional<ClusterTls> found = registry.lookup(host, port);
    if (found.isEmpty()) {
      throw new CertificateException("XdsClusterCredentials: no xds_cluster TLS settings for authority "
          + host + (port < 0 ? "" : ":" + port) + " (registered: " + registry.registeredPeers()
          + "); these credentials serve only channels whose policy is xds_cluster");
    }
    ClusterTls tls = found.get();
    if (chain == null || chain.length == 0) {
      throw new CertificateException("cluster " + tls.cluster() + ": the server sent no certificate");
    }
    verifyChain(tls, chain, authType);
    verifySubjectAltNames(tls, chain[0]);
    checkIdentityReady(tls);
  }

  // The server's chain is checked before the client picks its certificate: a provider with nothing
  // to present fails here, naming why, rather than in an alert from the server.
  private static void checkIdentityReady(ClusterTls tls) throws CertificateException {
    if (tls.identity().isPresent() && tls.identity().get().material().privateKey().isEmpty()) {
      CertificateProvider provider = tls.identity().get();
      throw new CertificateException("cluster " + tls.cluster() + ": certificate provider \""
          + tls.settings().identityCertificate().get().instanceName() + "\" has no certificate to present"
          + provider.failure().map(f -> " (" + f + ")").orElse(""));
    }
  }

  private void verifyChain(ClusterTls tls, X509Certificate[] chain, String authType) throws CertificateException {
    X509ExtendedTrustManager trust;
    String rootsName;
    if (tls.roots().isEmpty()) {
      trust = system();
      rootsName = "the system trust store";
    } else {
      CertificateProvider provider = tls.roots().get();
      String instance = tls.settings().rootCertificates().get().instanceName();
      rootsName = "the roots of certificate provider \"" + instance + "\"";
      CertificateProvider.Material material = provider.material();
      if (material.rootCertificates().isEmpty()) {
        throw new CertificateException("cluster " + tls.cluster() + ": certificate provider \"" + instance
            + "\" has no CA certificates" + provider.failure().map(f -> " (" + f + ")").orElse(""));
      }
      trust = verifier(provider, material);
      rootsName += " " + subjects(material.rootCertificates());
    }
    try {
      trust.checkServerTrusted(chain, authType);
    } catch (CertificateException e) {
      throw new CertificateException("cluster " + tls.cluster() + ": server certificate "
          + chain[0].getSubjectX500Principal().getName() + " issued by "
          + chain[chain.length - 1].getIssuerX500Principal().getName() + " is not trusted by " + rootsName
          + ": " + e.getMessage(), e);
    }
  }

  private static void verifySubjectAltNames(ClusterTls tls, X509Certificate leaf) throws CertificateException {
    List<SubjectAltNameMatcher> matchers = tls.settings().subjectAltNameMatchers();
    if (matchers.isEmpty()) {
      return; // gRFC A29: no matchers, no SAN check; the chain was verified
    }
    List<String> names = new ArrayList<>();
    Collection<List<?>> sans;
    try {
      sans = leaf.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      throw new CertificateException("cluster " + tls.cluster() + ": cannot read the server certificate's "
          + "subject alternative names: " + e.getMessage(), e);
    }
    if (sans != null) {
      for (List<?> san : sans) {
        int type = (Integer) san.get(0);
        // rfc822Name (1), dNSName (2), uniformResourceIdentifier (6), iPAddress (7): what gRPC matches
        if (type != 1 && type != 2 && type != 6 && type != 7) {
          continue;
        }
        String name = String.valueOf(san.get(1));
        if (type == 7) {
          // gRFC A29: IP names in canonical text form; Java writes IPv6 as 2001:db8:0:0:0:0:0:1.
          name = IpAddressText.canonical(name).orElse(name);
        }
        for (SubjectAltNameMatcher m : matchers) {
          if (m.matches(name, type == 2)) {
            return;
          }
        }
        names.add(name);
      }
    }
    throw new CertificateException("cluster " + tls.cluster() + ": server certificate "
        + leaf.getSubjectX500Principal().getName() + " has subject alternative names " + names
        + ", none of which matches match_subject_alt_names " + matchers);
  }

  private X509ExtendedTrustManager verifier(CertificateProvider provider, CertificateProvider.Material material)
      throws CertificateException {
    Verifier v = verifiers.get(provider);
    if (v == null || v.material != material) {
      try {
        v = new Verifier(material, RootTrust.forRoots(material.rootCertificates()));
      } catch (GeneralSecurityException e) {
        throw new CertificateException("cannot build a trust manager: " + e.getMessage(), e);
      }
      verifiers.put(provider, v);
    }
    return v.trust;
  }

  private X509ExtendedTrustManager system() throws CertificateException {
    X509ExtendedTrustManager s = system;
    if (s == null) {
      try {
        s = RootTrust.system();
      } catch (GeneralSecurityException e) {
        throw new CertificateException("cannot load the system trust store: " + e.getMessage(), e);
      }
      system = s;
    }
    return s;
  }

  private static String subjects(List<X509Certificate> roots) {
    List<String> names = new ArrayList<>();
    for (X509Certificate c : roots) {
      names.add(c.getSubjectX500Principal().getName());
    }
    return names.toString();
  }

  private record Verifier(CertificateProvider.Material material, X509ExtendedTrustManager trust) {}
}
