package io.jxds.client.internal.tls;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/** The JVM's PKIX trust manager for a set of roots, or for the JVM's own trust store (gRFC A82). */
public final class RootTrust {
  private RootTrust() {}

  /** A trust manager that accepts chains ending at one of {@code roots}. */
  public static X509ExtendedTrustManager forRoots(List<X509Certificate> roots) throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    try {
      store.load(null, null);
    } catch (java.io.IOException e) {
      throw new GeneralSecurityException(e);
    }
    for (int i = 0; i < roots.size(); i++) {
      store.setCertificateEntry("root-" + i, roots.get(i));
    }
    return fromFactory(store);
  }

  /** The JVM's default trust store. */
  public static X509ExtendedTrustManager system() throws GeneralSecurityException {
    return fromFactory(null);
  }

  private static X509ExtendedTrustManager fromFactory(KeyStore store) throws GeneralSecurityException {
    TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    for (TrustManager tm : factory.getTrustManagers()) {
      if (tm instanceof X509ExtendedTrustManager x) {
        return x;
      }
    }
    throw new GeneralSecurityException("the JVM has no X509ExtendedTrustManager");
  }
}
