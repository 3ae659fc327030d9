package io.jxds.testing;

import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import java.util.List;
import java.util.Objects;

/**
 * One {@code DiscoveryRequest} as {@link FakeAdsServer} received and classified it.
 *
 * @param streamId the server-assigned id of the ADS stream it arrived on (1, 2, ... in the
 *     order streams opened; ids are never reused, not even across a stop and start)
 * @param typeUrl the request's {@code type_url}
 * @param versionInfo the request's {@code version_info}: on an ACK the version being accepted, on
 *     a NACK the last version the client accepted
 * @param responseNonce the request's {@code response_nonce}
 * @param resourceNames the request's {@code resource_names}, in wire order
 * @param kind how the server classified it (and therefore what it did with it)
 * @param raw the request exactly as received, for assertions on other fields such as {@code node}
 */
public record RecordedRequest(
    long streamId,
    String typeUrl,
    String versionInfo,
    String responseNonce,
    List<String> resourceNames,
    Kind kind,
    DiscoveryRequest raw) {

  /** How a request relates to what the server sent on that stream for that type. */
  public enum Kind {
    /** The first request for this type on this stream. */
    INITIAL,
    /** Answers the last response sent for this type on this stream, without {@code error_detail}. */
    ACK,
    /** Answers the last response sent for this type on this stream, with {@code error_detail}. */
    NACK,
    /** A later request that changes the subscribed names without answering a new response. */
    SUBSCRIPTION_CHANGE,
    /** A later request that changes nothing: its nonce was already answered, same names. */
    DUPLICATE,
    /**
     * Carries a nonce that is not the last one the server sent for this type on this stream.
     * Recorded and otherwise ignored entirely, resource names included, as real SotW servers do.
     */
    STALE,
    /** A type URL the server does not serve: recorded, never answered. */
    UNKNOWN_TYPE
  }

  /**
   * Copies the name list, so the record stays immutable.
   *
   * @param streamId the stream's id
   * @param typeUrl the {@code type_url}
   * @param versionInfo the {@code version_info}
   * @param responseNonce the {@code response_nonce}
   * @param resourceNames the {@code resource_names}
   * @param kind the classification
   * @param raw the request as received
   */
  public RecordedRequest {
    Objects.requireNonNull(typeUrl, "typeUrl");
    Objects.requireNonNull(versionInfo, "versionInfo");
    Objects.requireNonNull(responseNonce, "responseNonce");
    resourceNames = List.copyOf(resourceNames);
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(raw, "raw");
  }

  /** Builds the record of {@code request} as classified. */
  static RecordedRequest of(long streamId, DiscoveryRequest request, Kind kind) {
    return new RecordedRequest(
        streamId,
        request.getTypeUrl(),
        request.getVersionInfo(),
        request.getResponseNonce(),
        request.getResourceNamesList(),
        kind,
        request);
  }

  /**
   * Whether the request carries {@code error_detail} (a NACK, or a stale one).
   *
   * @return true if {@code error_detail} is set
   */
  public boolean hasErrorDetail() {
    return raw.hasErrorDetail();
  }

  /**
   * The {@code error_detail} message the client sent, or {@code ""} when it sent none.
   *
   * @return {@code error_detail.message}, or {@code ""}
   */
  public String errorMessage() {
    return raw.hasErrorDetail() ? raw.getErrorDetail().getMessage() : "";
  }

  /**
   * The {@code error_detail} code the client sent, or 0 (OK) when it sent none.
   *
   * @return {@code error_detail.code}, or 0
   */
  public int errorCode() {
    return raw.hasErrorDetail() ? raw.getErrorDetail().getCode() : 0;
  }

  @Override
  public String toString() {
    StringBuilder s =
        new StringBuilder()
            .append(kind)
            .append("{stream=")
            .append(streamId)
            .append(", type=")
            .append(typeUrl.substring(typeUrl.lastIndexOf('/') + 1))
            .append(", version='")
            .append(versionInfo)
            .append("', nonce='")
            .append(responseNonce)
            .append("', names=")
            .append(resourceNames);
    if (hasErrorDetail()) {
      s.append(", error='").append(errorMessage()).append('\'');
    }
    return s.append('}').toString();
  }
}
