package io.jxds.balancer.internal.tree;

import io.jxds.api.ResourceStatus;
import io.jxds.api.XdsClient;
import io.jxds.api.XdsClientStatus;

/**
 * What the CDS and EDS layers add to "does not exist" when a resource they watch is absent: why
 * the client holds it absent, when it says ({@code ": deleted by the control plane"}, or a timeout
 * that names a control plane holding its whole response back), and the node id the control plane
 * answered for. An operator reading the RPC's error should not need the client's logs.
 */
public final class ResourceAbsence {
  private ResourceAbsence() {}

  /**
   * The text to append to the layer's own "does not exist": {@code ": <reason> (node id <id>)"},
   * or {@code " (node id <id>)"} when the client gives no reason.
   *
   * @param typeUrl the resource's type URL
   * @param name the resource's name
   */
  public static String why(XdsClient client, String typeUrl, String name) {
    XdsClientStatus status = client.status();
    String reason = status.resource(typeUrl, name)
        .flatMap(ResourceStatus::lastError)
        .map(why -> ": " + why)
        .orElse("");
    return reason + " (node id " + status.nodeId() + ")";
  }
}
