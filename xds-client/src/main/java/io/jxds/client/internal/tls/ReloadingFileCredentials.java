package io.jxds.client.internal.tls;

import io.grpc.ChannelCredentials;
import io.grpc.TlsChannelCredentials;
import io.jxds.api.CertificateProvider.Material;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * {@code channel_creds} {@code tls} (gRFC A65) whose files are read again at each handshake to the
 * control plane: a rotated client certificate or CA serves the next connection, without a new
 * channel. Verification is the JVM's own, host name included; a file that turns bad keeps the last
 * good material (logged once).
 */
public final class ReloadingFileCredentials {
  private ReloadingFileCredentials() {}

  /**
   * Credentials for these files; each may be empty (no client certificate; the JVM's trust store).
   *
   * @throws GeneralSecurityException if the files cannot be read or do not parse now
   */
  public static ChannelCredentials create(
      Optional<String> caCertificateFile, Optional<String> certificateFile, Optional<String> privateKeyFile)
      throws GeneralSecurityException {
    FileCertificateSource source =
        new FileCertificateSource("channel_creds tls", certificateFile, privateKeyFile, caCertificateFile);
    source.refresh();
    if (source.failure().isPresent()) {
      throw new GeneralSecurityException(source.failure().get());
    }
    TlsChannelCredentials.Builder tls = TlsChannelCredentials.newBuilder();
    if (certificateFile.isPresent()) {
      tls.keyManager(new MaterialKeyManager() {
        @Override
        protected Optional<Material> identity(String host, int port) {
          source.refresh();
          return Optional.of(source.material());
        }
      });
    }
    if (caCertificateFile.isPresent()) {
      tls.trustManager(new ReloadingTrustManager(source));
    }
    return tls.build();
  }

  /** Verifies with the roots the files hold at each handshake, and the JVM's host name check. */
  private static final class ReloadingTrustManager extends ClientSideTrustManager {
    private final FileCertificateSource source;
    private volatile Material trusted;
    private volatile X509ExtendedTrustManager delegate;

    ReloadingTrustManager(FileCertificateSource source) {
      this.source = source;
    }

    private X509ExtendedTrustManager current() throws CertificateException {
      source.refresh();
      Material m = source.material();
      if (m != trusted) {
        try {
          delegate = RootTrust.forRoots(m.rootCertificates());
        } catch (GeneralSecurityException e) {
          throw new CertificateException("channel_creds tls: " + e.getMessage(), e);
        }
        trusted = m;
      }
      return delegate;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      current().checkServerTrusted(chain, authType, engine);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      current().checkServerTrusted(chain, authType, socket);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      current().checkServerTrusted(chain, authType);
    }
  }
}
