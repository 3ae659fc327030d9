package io.jxds.client.bootstrap;

/**
 * The bootstrap could not be found, read or understood. The message names the source (for
 * example {@code env GRPC_XDS_BOOTSTRAP=/etc/xds.json}) and the offending field (for example
 * {@code xds_servers[0].channel_creds}).
 */
public final class BootstrapException extends Exception {
  private static final long serialVersionUID = 1L;

  public BootstrapException(String message) {
    super(message);
  }

  public BootstrapException(String message, Throwable cause) {
    super(message, cause);
  }
}
