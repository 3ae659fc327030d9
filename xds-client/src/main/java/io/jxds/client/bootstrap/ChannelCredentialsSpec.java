package io.jxds.client.bootstrap;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.TlsChannelCredentials;
import io.jxds.client.internal.tls.GoogleDefaultCredentials;
import io.jxds.client.internal.tls.ReloadingFileCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.util.Objects;
import java.util.Optional;

/**
 * A bootstrap {@code channel_creds} entry that jxds supports, kept as data so that two bootstraps
 * can be compared: {@code insecure}, {@code tls} with the JVM's trust store or a CA file (and an
 * optional client certificate for mutual TLS), or {@code google_default} (Traffic Director: needs
 * {@code io.grpc:grpc-alts} on the class path, an optional dependency).
 *
 * @param type {@code insecure}, {@code tls} or {@code google_default}
 * @param caCertificateFile {@code config.ca_certificate_file}; empty means the JVM trust store
 * @param certificateFile {@code config.certificate_file}, for mutual TLS
 * @param privateKeyFile {@code config.private_key_file}, for mutual TLS
 */
public record ChannelCredentialsSpec(
    String type,
    Optional<String> caCertificateFile,
    Optional<String> certificateFile,
    Optional<String> privateKeyFile) {
  /** The {@code type} of plaintext credentials. */
  public static final String INSECURE = "insecure";
  /** The {@code type} of TLS credentials. */
  public static final String TLS = "tls";
  /** The {@code type} of Google's default credentials (grpc-alts's {@code GoogleDefaultChannelCredentials}). */
  public static final String GOOGLE_DEFAULT = "google_default";

  /**
   * Creates a spec, checking its components.
   *
   * @param type {@value #INSECURE}, {@value #TLS} or {@value #GOOGLE_DEFAULT}
   * @param caCertificateFile the CA file, empty for the JVM trust store
   * @param certificateFile the client certificate file, present exactly when the key is
   * @param privateKeyFile the client key file, present exactly when the certificate is
   * @throws IllegalArgumentException if the type is unsupported or only one of certificate and key
   *     is given
   */
  public ChannelCredentialsSpec {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(caCertificateFile, "caCertificateFile");
    Objects.requireNonNull(certificateFile, "certificateFile");
    Objects.requireNonNull(privateKeyFile, "privateKeyFile");
    if (!type.equals(INSECURE) && !type.equals(TLS) && !type.equals(GOOGLE_DEFAULT)) {
      throw new IllegalArgumentException("unsupported channel_creds type " + type);
    }
    if (type.equals(GOOGLE_DEFAULT) && (caCertificateFile.isPresent() || certificateFile.isPresent())) {
      throw new IllegalArgumentException("channel_creds google_default takes no files");
    }
    if (certificateFile.isPresent() != privateKeyFile.isPresent()) {
      throw new IllegalArgumentException("certificate_file and private_key_file go together");
    }
  }

  /**
   * Plaintext.
   *
   * @return an {@value #INSECURE} spec
   */
  public static ChannelCredentialsSpec insecure() {
    return new ChannelCredentialsSpec(INSECURE, Optional.empty(), Optional.empty(), Optional.empty());
  }

  /**
   * TLS trusting the JVM's default trust store.
   *
   * @return a {@value #TLS} spec without files
   */
  public static ChannelCredentialsSpec tls() {
    return new ChannelCredentialsSpec(TLS, Optional.empty(), Optional.empty(), Optional.empty());
  }

  /**
   * Google's default credentials, as grpc-java builds them for Traffic Director.
   *
   * @return a {@value #GOOGLE_DEFAULT} spec
   */
  public static ChannelCredentialsSpec googleDefault() {
    return new ChannelCredentialsSpec(GOOGLE_DEFAULT, Optional.empty(), Optional.empty(), Optional.empty());
  }

  /**
   * Builds the gRPC credentials. With files, they are read again at each handshake to the control
   * plane (gRFC A65), so a rotated certificate needs no new channel.
   *
   * <p>{@value #GOOGLE_DEFAULT} gives what grpc-java's {@code GoogleDefaultChannelCredentials.create()}
   * gives: TLS with OAuth2 call credentials from the application default credentials; without those,
   * every call to the control plane fails UNAUTHENTICATED.
   *
   * @return the credentials
   * @throws UncheckedIOException if a certificate or key file cannot be read or parsed now
   * @throws IllegalStateException for {@value #GOOGLE_DEFAULT} without {@code io.grpc:grpc-alts}
   */
  public ChannelCredentials toChannelCredentials() {
    if (type.equals(INSECURE)) {
      return InsecureChannelCredentials.create();
    }
    if (type.equals(GOOGLE_DEFAULT)) {
      return GoogleDefaultCredentials.create();
    }
    if (caCertificateFile.isEmpty() && certificateFile.isEmpty()) {
      return TlsChannelCredentials.create();
    }
    try {
      return ReloadingFileCredentials.create(caCertificateFile, certificateFile, privateKeyFile);
    } catch (GeneralSecurityException e) {
      throw new UncheckedIOException(new IOException(e.getMessage(), e));
    }
  }
}
