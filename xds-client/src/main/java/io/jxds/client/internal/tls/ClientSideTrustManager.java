package io.jxds.client.internal.tls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A trust manager for the client side of TLS only: it refuses to judge client certificates, and
 * advertises no issuers. Subclasses decide about servers.
 */
public abstract class ClientSideTrustManager extends X509ExtendedTrustManager {
  @Override
  public final void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    throw new CertificateException("client-side credentials cannot verify clients");
  }

  @Override
  public final void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw new CertificateException("client-side credentials cannot verify clients");
  }

  @Override
  public final void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    throw new CertificateException("client-side credentials cannot verify clients");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
