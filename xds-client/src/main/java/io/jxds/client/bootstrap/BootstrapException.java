package io.jxds.client.bootstrap;

/**
 * The bootstrap could not be found, read or understood. The message names the source (for
 * example {@code env GRPC_XDS_BOOTSTRAP=/etc/xds.json}) and the offending field (for example
 * {@code xds_servers[0].channel_creds}).
 */
public final class BootstrapException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Whether no bootstrap source was set at all; see {@link #isMissing()}. */
  private final boolean missing;

  /**
   * Creates the exception.
   *
   * @param message what is wrong, naming the source and the field
   */
  public BootstrapException(String message) {
    super(message);
    this.missing = false;
  }

  /** No bootstrap at all: {@link BootstrapLoader} found none of its sources set. */
  BootstrapException(String message, boolean missing) {
    super(message);
    this.missing = missing;
  }

  /**
   * Creates the exception with its underlying failure, for example an {@code IOException}.
   *
   * @param message what is wrong, naming the source and the field
   * @param cause the underlying failure
   */
  public BootstrapException(String message, Throwable cause) {
    super(message, cause);
    this.missing = false;
  }

  /**
   * Whether no bootstrap was found at all (no source set), as opposed to one that is set but
   * cannot be read or understood.
   *
   * @return true when none of the sources {@link BootstrapLoader} tries is set
   */
  public boolean isMissing() {
    return missing;
  }
}
