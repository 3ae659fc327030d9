package io.jxds.client.internal.tls;

import io.jxds.api.CertificateProvider.Material;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A client key manager that presents, at each handshake, the identity a subclass finds for the
 * connection's peer (the channel's authority): so a rotated certificate serves the next handshake.
 * The alias it hands the TLS stack names one immutable {@link Material}, so a rotation between the
 * stack's calls for the chain and for the key cannot mix two generations.
 */
public abstract class MaterialKeyManager extends X509ExtendedKeyManager {
  private static final int MAX_ALIASES = 64;
  private final Map<String, Material> aliases = new ConcurrentHashMap<>();

  /**
   * The identity to present to {@code host:port} (the SSL engine's peer, from the channel's
   * authority; port -1 when it has none), or empty to present none.
   */
  protected abstract Optional<Material> identity(String host, int port);

  @Override
  public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
    return engine == null ? null : alias(engine.getPeerHost(), engine.getPeerPort());
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    if (socket instanceof SSLSocket ssl) {
      SSLSession session = ssl.getHandshakeSession();
      if (session != null) {
        return alias(session.getPeerHost(), session.getPeerPort());
      }
    }
    return null;
  }

  private String alias(String host, int port) {
    Optional<Material> identity = identity(host, port);
    if (identity.isEmpty() || identity.get().privateKey().isEmpty()) {
      return null;
    }
    Material m = identity.get();
    String alias = "jxds-" + Integer.toHexString(System.identityHashCode(m)) + "-" + m.generation();
    if (aliases.size() >= MAX_ALIASES && !aliases.containsKey(alias)) {
      aliases.clear(); // old generations: only a handshake started before a burst of rotations needs them
    }
    aliases.put(alias, m);
    return alias;
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    Material m = alias == null ? null : aliases.get(alias);
    return m == null ? null : m.certificateChain().toArray(new X509Certificate[0]);
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    Material m = alias == null ? null : aliases.get(alias);
    return m == null ? null : m.privateKey().orElse(null);
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return null; // chosen per handshake, never listed
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return null;
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return null; // client side only
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return null;
  }
}
