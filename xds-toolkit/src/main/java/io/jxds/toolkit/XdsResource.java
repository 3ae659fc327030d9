package io.jxds.toolkit;

import com.google.protobuf.Any;
import java.util.Objects;

/**
 * One xDS resource as a client would receive it, and where it came from.
 *
 * @param typeUrl the type the client decodes it as: the {@code type_url} of the DiscoveryResponse it
 *     came in, else its own type (the inner one for an {@code envoy.service.discovery.v3.Resource}
 *     wrapper)
 * @param any the resource as on the wire
 * @param source where it came from, e.g. {@code clusters.json:12} or {@code Snapshot.of #3}
 * @param index its index in the DiscoveryResponse it came in, which the NACK text of an unreadable
 *     resource names; 0 for a resource that came alone
 */
public record XdsResource(String typeUrl, Any any, String source, int index) {
  /**
   * Checks the components.
   *
   * @param typeUrl the type it is decoded as
   * @param any the resource
   * @param source where it came from
   * @param index its index in its response
   */
  public XdsResource {
    Objects.requireNonNull(typeUrl, "typeUrl");
    Objects.requireNonNull(any, "any");
    Objects.requireNonNull(source, "source");
  }
}
