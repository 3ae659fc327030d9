package io.jxds.api.internal.decode;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.jxds.api.XdsResourceException;
import io.jxds.api.internal.decode.AssignmentBuilder.AddressKind;
import io.jxds.api.internal.decode.AssignmentBuilder.StagedEndpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.LocalityId;
import java.util.Optional;

/**
 * Decodes an envoy v3 {@code ClusterLoadAssignment} into an {@link EndpointsUpdate}: from a parsed
 * message (the tree reader, here) or from its wire bytes (the one-pass {@link
 * WireEndpointsDecoder}, with this reader as its fallback). Both only read; the rules, and the NACK
 * messages, are {@link AssignmentBuilder}'s (gRFC A27, A76): a broken rule is a NACK naming the
 * assignment, the field and the value.
 */
public final class EndpointsDecoder {
  private static final String KIND = AssignmentBuilder.KIND;

  private EndpointsDecoder() {}

  /**
   * Validates {@code assignment}; every rule broken names the assignment, the field and the value.
   *
   * @throws XdsResourceException whatever is wrong with the input; never an unchecked exception
   */
  public static EndpointsUpdate decode(ClusterLoadAssignment assignment) throws XdsResourceException {
    String name = "";
    try {
      name = assignment.getClusterName();
      return decodeChecked(assignment, name);
    } catch (RuntimeException e) {
      throw Nack.unexpected(KIND, name, e);
    }
  }

  /**
   * Decodes a ClusterLoadAssignment straight from its wire bytes (an {@code Any}'s value), with the
   * same rules, result and messages as {@code decode(ClusterLoadAssignment.parseFrom(bytes))}.
   *
   * <p>The usual assignment is read in one pass without building the protobuf tree (see {@code
   * WireEndpointsDecoder}); an assignment that breaks a rule, or that the single pass is not sure
   * about (merged submessages, fields it does not read, malformed bytes...), is parsed and decoded the tree way,
   * which gives the message.
   *
   * @throws XdsResourceException whatever is wrong with the input; never an unchecked exception
   */
  public static EndpointsUpdate decode(ByteString bytes) throws XdsResourceException {
    EndpointsUpdate fast = WireEndpointsDecoder.tryDecode(bytes);
    if (fast != null) {
      return fast;
    }
    ClusterLoadAssignment assignment;
    try {
      assignment = ClusterLoadAssignment.parseFrom(bytes);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new XdsResourceException(null, KIND + " \"\": cannot be parsed: " + e.getMessage(), e);
    }
    return decode(assignment);
  }

  /**
   * Only the one-pass half of {@link #decode(ByteString)}: the update when the bytes are an
   * assignment that single pass accepts, else empty (broken rule, malformed bytes, or an input it
   * leaves to the tree decoder) — then {@link #decode(ByteString)} or {@code parseFrom} + {@link
   * #decode(ClusterLoadAssignment)} gives the answer and the message. For callers, such as {@code
   * ResourceType}, that have their own slower path and must not parse twice when a resource is
   * rejected.
   */
  public static Optional<EndpointsUpdate> decodeInOnePass(ByteString bytes) {
    return Optional.ofNullable(WireEndpointsDecoder.tryDecode(bytes));
  }

  /**
   * Feeds the tree to the rules in the order their messages follow: name, localities (each
   * entry's endpoints, then the entry), drops, factor.
   */
  private static EndpointsUpdate decodeChecked(ClusterLoadAssignment cla, String name)
      throws XdsResourceException {
    int count = cla.getEndpointsCount();
    int endpointCount = 0;
    for (int i = 0; i < count; i++) {
      endpointCount += cla.getEndpoints(i).getLbEndpointsCount();
    }
    AssignmentBuilder assignment = new AssignmentBuilder(endpointCount);
    assignment.clusterName(name);
    for (int i = 0; i < count; i++) {
      LocalityLbEndpoints entry = cla.getEndpoints(i);
      // Staging reads a whole entry from the freshly parsed tree (several MB, out of cache by now)
      // with loads that do not depend on each other, so the CPU overlaps their cache misses;
      // interleaved with validation they were taken one at a time (decode was ~2x parse).
      for (int j = 0; j < entry.getLbEndpointsCount(); j++) {
        stage(entry.getLbEndpoints(j), assignment.nextEndpoint());
      }
      assignment.locality(
          entry.hasLocality()
              ? new LocalityId(
                  entry.getLocality().getRegion(), entry.getLocality().getZone(), entry.getLocality().getSubZone())
              : LocalityId.EMPTY,
          entry.hasLoadBalancingWeight()
              ? Integer.toUnsignedLong(entry.getLoadBalancingWeight().getValue())
              : AssignmentBuilder.UNSET,
          Integer.toUnsignedLong(entry.getPriority()));
    }
    ClusterLoadAssignment.Policy policy = cla.getPolicy();
    for (ClusterLoadAssignment.Policy.DropOverload drop : policy.getDropOverloadsList()) {
      assignment.dropOverload(
          drop.getCategory(),
          Integer.toUnsignedLong(drop.getDropPercentage().getNumerator()),
          drop.getDropPercentage().getDenominatorValue());
    }
    if (policy.hasOverprovisioningFactor()) {
      assignment.overprovisioningFactor(Integer.toUnsignedLong(policy.getOverprovisioningFactor().getValue()));
    }
    return assignment.build();
  }

  private static void stage(LbEndpoint lb, StagedEndpoint e) {
    SocketAddress socket = lb.getEndpoint().getAddress().getSocketAddress();
    e.kind = addressKind(lb);
    e.ip = socket.getAddress();
    e.port = socket.getPortValue();
    e.resolverName = socket.getResolverName();
    e.namedPort =
        socket.getPortSpecifierCase() == SocketAddress.PortSpecifierCase.NAMED_PORT ? socket.getNamedPort() : null;
    e.weight =
        lb.hasLoadBalancingWeight()
            ? Integer.toUnsignedLong(lb.getLoadBalancingWeight().getValue())
            : AssignmentBuilder.UNSET;
    e.health = lb.getHealthStatusValue();
    e.hostname = lb.getEndpoint().getHostname();
    e.metadata = lb.hasMetadata() ? lb.getMetadata() : null;
    e.additional = lb.getEndpoint().getAdditionalAddressesCount() == 0
        ? null
        : lb.getEndpoint().getAdditionalAddressesList();
  }

  private static AddressKind addressKind(LbEndpoint lb) {
    if (!lb.hasEndpoint()) {
      return lb.getHostIdentifierCase() == LbEndpoint.HostIdentifierCase.ENDPOINT_NAME
          ? AddressKind.ENDPOINT_NAME
          : AddressKind.NO_ENDPOINT;
    }
    switch (lb.getEndpoint().getAddress().getAddressCase()) {
      case SOCKET_ADDRESS:
        return AddressKind.SOCKET_ADDRESS;
      case PIPE:
        return AddressKind.PIPE;
      case ENVOY_INTERNAL_ADDRESS:
        return AddressKind.ENVOY_INTERNAL_ADDRESS;
      default:
        return AddressKind.NO_ADDRESS;
    }
  }
}
