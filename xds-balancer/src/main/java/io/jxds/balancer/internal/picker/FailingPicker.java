package io.jxds.balancer.internal.picker;

import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Status;
import java.util.Objects;

/**
 * The picker of a balancer in TRANSIENT_FAILURE: every pick fails with one status. Parents read
 * {@link #status()} to name the last error in their own failure (never by picking).
 */
public final class FailingPicker extends SubchannelPicker {
  private final Status status;
  private final PickResult result;

  /** @param status not OK; jxds always uses UNAVAILABLE (gRFC A54) */
  public FailingPicker(Status status) {
    Objects.requireNonNull(status, "status");
    if (status.isOk()) {
      throw new IllegalArgumentException("a failing picker needs an error status");
    }
    this.status = status;
    this.result = PickResult.withError(status);
  }

  /** The status every pick fails with. */
  public Status status() {
    return status;
  }

  @Override
  public PickResult pickSubchannel(PickSubchannelArgs args) {
    return result;
  }

  @Override
  public String toString() {
    return "FailingPicker{" + status + "}";
  }

  /**
   * {@code "CODE: description"} of a status, for nesting one layer's error in another's text. A
   * failed TLS handshake's status says only "io exception"; the reason (for an upstream TLS
   * cluster, which SAN or root did not match, gRFC A29) is in its cause, so it is added.
   */
  public static String describe(Status status) {
    String description = status.getDescription();
    if (description == null && status.getCause() != null) {
      description = status.getCause().toString();
    }
    String tls = tlsReason(status.getCause());
    if (tls != null && (description == null || !description.contains(tls))) {
      description = (description == null ? "" : description + "; ") + "TLS handshake failed: " + tls;
    }
    return status.getCode() + (description == null ? "" : ": " + description);
  }

  /**
   * The message of the outermost certificate exception among the causes (the verifier's own, which
   * may wrap the JVM's), else of the deepest SSL exception; null when there is neither.
   */
  private static String tlsReason(Throwable cause) {
    String ssl = null;
    for (int depth = 0; cause != null && depth < 10; depth++, cause = cause.getCause()) {
      if (cause.getMessage() == null) {
        continue;
      }
      if (cause instanceof java.security.cert.CertificateException) {
        return cause.getMessage();
      }
      if (cause instanceof javax.net.ssl.SSLException) {
        ssl = cause.getMessage();
      }
    }
    return ssl;
  }
}
