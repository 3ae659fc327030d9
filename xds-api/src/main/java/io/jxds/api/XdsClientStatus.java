package io.jxds.api;

import java.util.List;
import java.util.Optional;

/**
 * An immutable snapshot of an {@link XdsClient}: the stream's state and every subscribed resource.
 *
 * @param connected whether the ADS stream is up and has received a response
 * @param nodeId the node id the client identifies itself with
 * @param resources every subscribed (or retained) resource, ordered by type URL then name
 */
public record XdsClientStatus(boolean connected, String nodeId, List<ResourceStatus> resources) {
  /**
   * Creates a snapshot.
   *
   * @param connected whether the ADS stream is up and has received a response
   * @param nodeId the node id the client identifies itself with
   * @param resources every subscribed resource; copied
   */
  public XdsClientStatus {
    resources = List.copyOf(resources);
  }

  /**
   * The status of one resource, if it is subscribed.
   *
   * @param typeUrl the resource's type URL, e.g. {@link ResourceTypes#CLUSTER_TYPE_URL}
   * @param name the resource's name
   * @return the resource's status, or empty when this snapshot does not hold it
   */
  public Optional<ResourceStatus> resource(String typeUrl, String name) {
    for (ResourceStatus r : resources) {
      if (r.typeUrl().equals(typeUrl) && r.name().equals(name)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }
}
