package io.jxds.client.internal.tls;

import io.jxds.api.CertificateProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Certificate material read from PEM files (a certificate chain with its key, and/or CA roots), re-read
 * by {@link #refresh()}: new content that reads well becomes the new {@link CertificateProvider.Material};
 * a file that is missing, does not parse, or a key that does not match its certificate (an agent
 * caught between writing the two) keeps the last good material, and is logged once per distinct
 * failure. Used by the {@code file_watcher} plugin (gRFC A29) and by {@code channel_creds} {@code tls}
 * (gRFC A65).
 *
 * <p>{@link #refresh()} is called by one thread at a time (a timer, or a handshake under the
 * caller's lock); {@link #material()} from any thread.
 */
public final class FileCertificateSource implements CertificateProvider {
  private static final Logger logger = LoggerFactory.getLogger(FileCertificateSource.class);

  private final String what;
  private final Optional<Path> certificateFile;
  private final Optional<Path> privateKeyFile;
  private final Optional<Path> caCertificateFile;
  private volatile Material material = Material.EMPTY;
  private volatile Optional<String> failure = Optional.empty();
  private byte[][] lastGoodBytes;

  /**
   * @param what names the source in logs and errors, e.g. {@code certificate_providers "default"}
   */
  public FileCertificateSource(
      String what, Optional<String> certificateFile, Optional<String> privateKeyFile,
      Optional<String> caCertificateFile) {
    this.what = what;
    this.certificateFile = certificateFile.map(Path::of);
    this.privateKeyFile = privateKeyFile.map(Path::of);
    this.caCertificateFile = caCertificateFile.map(Path::of);
    if (this.certificateFile.isPresent() != this.privateKeyFile.isPresent()) {
      throw new IllegalArgumentException("certificate_file and private_key_file go together");
    }
  }

  @Override
  public Material material() {
    return material;
  }

  @Override
  public Optional<String> failure() {
    return failure;
  }

  /** Re-reads the files; returns whether the material changed. Never throws. */
  public synchronized boolean refresh() {
    byte[][] bytes = new byte[3][];
    try {
      bytes[0] = read(certificateFile);
      bytes[1] = read(privateKeyFile);
      bytes[2] = read(caCertificateFile);
    } catch (IOException e) {
      fail("cannot read " + e.getMessage());
      return false;
    }
    if (lastGoodBytes != null && Arrays.deepEquals(bytes, lastGoodBytes)) {
      recovered();
      return false;
    }
    Material next;
    try {
      next = parse(bytes);
    } catch (GeneralSecurityException e) {
      fail(e.getMessage());
      return false;
    }
    boolean first = lastGoodBytes == null;
    lastGoodBytes = bytes;
    material = next;
    recovered();
    logger.debug("{}: {} material (generation {})", what, first ? "read" : "new", next.generation());
    return true;
  }

  private Material parse(byte[][] bytes) throws GeneralSecurityException {
    Optional<PrivateKey> key = Optional.empty();
    List<X509Certificate> chain = List.of();
    if (bytes[0] != null) {
      chain = parsing(certificateFile.get(), () -> PemFiles.certificates(bytes[0]));
      PrivateKey k = parsing(privateKeyFile.get(), () -> PemFiles.privateKey(bytes[1]));
      try {
        PemFiles.checkPair(k, chain.get(0));
      } catch (GeneralSecurityException e) {
        throw new GeneralSecurityException(
            privateKeyFile.get() + " and " + certificateFile.get() + ": " + e.getMessage(), e);
      }
      key = Optional.of(k);
    }
    List<X509Certificate> roots = List.of();
    if (bytes[2] != null) {
      roots = parsing(caCertificateFile.get(), () -> PemFiles.certificates(bytes[2]));
    }
    return new Material(key, chain, roots, material.generation() + 1);
  }

  private interface Parse<T> {
    T parse() throws GeneralSecurityException;
  }

  private static <T> T parsing(Path file, Parse<T> parse) throws GeneralSecurityException {
    try {
      return parse.parse();
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new GeneralSecurityException(file + ": " + e.getMessage(), e);
    }
  }

  private static byte[] read(Optional<Path> file) throws IOException {
    if (file.isEmpty()) {
      return null;
    }
    try {
      return Files.readAllBytes(file.get());
    } catch (IOException e) {
      throw new IOException(file.get() + " (" + e.getClass().getSimpleName() + ")", e);
    }
  }

  private void fail(String problem) {
    String message = what + ": " + problem
        + (lastGoodBytes == null ? "; no certificate material yet" : "; keeping the last good material");
    if (!failure.equals(Optional.of(message))) {
      logger.warn("{}", message);
    }
    failure = Optional.of(message);
  }

  private void recovered() {
    if (failure.isPresent()) {
      logger.info("{}: certificate files read again", what);
      failure = Optional.empty();
    }
  }
}
