package io.jxds.api.internal.decode;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Duration;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.WireFormat;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint.AdditionalAddress;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.jxds.api.XdsResourceException;
import io.jxds.api.internal.decode.AssignmentBuilder.AddressKind;
import io.jxds.api.internal.decode.AssignmentBuilder.StagedEndpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.LocalityId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Map;

/**
 * The fast path of {@link EndpointsDecoder#decode(ByteString)}: reads a ClusterLoadAssignment's
 * wire bytes once with {@link CodedInputStream} and feeds what it reads to the {@link
 * AssignmentBuilder}, which checks every rule and builds the {@link EndpointsUpdate}, without the
 * protobuf message tree (about 8 MB for 10 000 endpoints, which the tree decoder had to bring back
 * into the cache after {@code parseFrom} built it). This class only reads: no rule is here.
 *
 * <p>It only ever <em>accepts</em>: it returns null ("fall back") for anything it is not sure
 * about, and the caller then runs {@code parseFrom} + {@link EndpointsDecoder#decode(ClusterLoadAssignment)},
 * which gives the exact parse error or NACK message. So that an accepted result is always the one
 * the tree path would give, it falls back on:
 *
 * <ul>
 *   <li>any rule the builder rejects: the same rules see the same values as on the tree path, but
 *       in wire order (the name may come last), so the tree path says which rule to name;
 *   <li>malformed wire data, groups (wire types 3 and 4), a known field with an unexpected wire type;
 *   <li>a singular message field seen twice in one message: protobuf merges those, this reader
 *       does not (a repeated scalar field takes the last value, as protobuf does);
 *   <li>a known field it does not interpret, unless it is a singular number, bool or enum (skipped)
 *       or one of the messages no rule reads (locality {@code metadata},
 *       {@code health_check_config}, {@code proximity},
 *       {@code endpoint_stale_after}: parsed like {@code parseFrom} would, then dropped). So
 *       strings (protobuf checks their UTF-8), {@code named_port}, {@code resolver_name},
 *       {@code pipe}, {@code envoy_internal_address}, {@code endpoint_name},
 *       {@code named_endpoints}, {@code load_balancer_endpoints} and LEDS fall back.
 * </ul>
 *
 * <p>An endpoint's {@code metadata} is parsed as {@code parseFrom} would and read for its ring
 * hash key (gRFC A76); seen twice in one endpoint (protobuf would merge), it falls back. Its
 * {@code additional_addresses} entries (gRFC A61) are parsed as {@code parseFrom} would and handed
 * to the builder, which checks them as the tree path does.
 *
 * <p>Unknown field numbers are skipped, as {@code parseFrom} keeps them aside unread. Field
 * numbers are the generated {@code *_FIELD_NUMBER} constants (checked against the descriptors in
 * {@code WireEndpointsDecoderTest}).
 */
final class WireEndpointsDecoder {
  /**
   * About what an endpoint takes on the wire ({@code 10.0.0.1:8080} with a weight and a health
   * takes 27 bytes, without them 20): the assignment's size over this is the builder's estimate of
   * the endpoint count, which sizes its address set. Smaller endpoints make the set grow once;
   * larger ones (metadata) leave it sparse. Too large a set costs cache misses on every insert.
   */
  private static final int TYPICAL_ENDPOINT_BYTES = 24;

  private static final int LD = WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int VARINT = WireFormat.WIRETYPE_VARINT;

  private static final int CLA_CLUSTER_NAME = ClusterLoadAssignment.CLUSTER_NAME_FIELD_NUMBER << 3 | LD;
  private static final int CLA_ENDPOINTS = ClusterLoadAssignment.ENDPOINTS_FIELD_NUMBER << 3 | LD;
  private static final int CLA_POLICY = ClusterLoadAssignment.POLICY_FIELD_NUMBER << 3 | LD;
  private static final int POLICY_DROP_OVERLOADS =
      ClusterLoadAssignment.Policy.DROP_OVERLOADS_FIELD_NUMBER << 3 | LD;
  private static final int POLICY_OVERPROVISIONING_FACTOR =
      ClusterLoadAssignment.Policy.OVERPROVISIONING_FACTOR_FIELD_NUMBER << 3 | LD;
  private static final int DROP_CATEGORY = ClusterLoadAssignment.Policy.DropOverload.CATEGORY_FIELD_NUMBER << 3 | LD;
  private static final int DROP_PERCENTAGE =
      ClusterLoadAssignment.Policy.DropOverload.DROP_PERCENTAGE_FIELD_NUMBER << 3 | LD;
  private static final int PERCENT_NUMERATOR = FractionalPercent.NUMERATOR_FIELD_NUMBER << 3 | VARINT;
  private static final int PERCENT_DENOMINATOR = FractionalPercent.DENOMINATOR_FIELD_NUMBER << 3 | VARINT;
  private static final int LLE_LOCALITY = LocalityLbEndpoints.LOCALITY_FIELD_NUMBER << 3 | LD;
  private static final int LLE_LB_ENDPOINTS = LocalityLbEndpoints.LB_ENDPOINTS_FIELD_NUMBER << 3 | LD;
  private static final int LLE_WEIGHT = LocalityLbEndpoints.LOAD_BALANCING_WEIGHT_FIELD_NUMBER << 3 | LD;
  private static final int LLE_PRIORITY = LocalityLbEndpoints.PRIORITY_FIELD_NUMBER << 3 | VARINT;
  private static final int LOCALITY_REGION = io.envoyproxy.envoy.config.core.v3.Locality.REGION_FIELD_NUMBER << 3 | LD;
  private static final int LOCALITY_ZONE = io.envoyproxy.envoy.config.core.v3.Locality.ZONE_FIELD_NUMBER << 3 | LD;
  private static final int LOCALITY_SUB_ZONE =
      io.envoyproxy.envoy.config.core.v3.Locality.SUB_ZONE_FIELD_NUMBER << 3 | LD;
  private static final int LB_ENDPOINT = LbEndpoint.ENDPOINT_FIELD_NUMBER << 3 | LD;
  private static final int LB_HEALTH_STATUS = LbEndpoint.HEALTH_STATUS_FIELD_NUMBER << 3 | VARINT;
  private static final int LB_WEIGHT = LbEndpoint.LOAD_BALANCING_WEIGHT_FIELD_NUMBER << 3 | LD;
  private static final int LB_METADATA = LbEndpoint.METADATA_FIELD_NUMBER << 3 | LD;
  private static final int ENDPOINT_ADDRESS =
      io.envoyproxy.envoy.config.endpoint.v3.Endpoint.ADDRESS_FIELD_NUMBER << 3 | LD;
  private static final int ENDPOINT_HOSTNAME =
      io.envoyproxy.envoy.config.endpoint.v3.Endpoint.HOSTNAME_FIELD_NUMBER << 3 | LD;
  private static final int ENDPOINT_ADDITIONAL_ADDRESSES =
      io.envoyproxy.envoy.config.endpoint.v3.Endpoint.ADDITIONAL_ADDRESSES_FIELD_NUMBER << 3 | LD;
  private static final int ADDRESS_SOCKET_ADDRESS = Address.SOCKET_ADDRESS_FIELD_NUMBER << 3 | LD;
  private static final int SOCKET_ADDRESS = SocketAddress.ADDRESS_FIELD_NUMBER << 3 | LD;
  private static final int SOCKET_PORT_VALUE = SocketAddress.PORT_VALUE_FIELD_NUMBER << 3 | VARINT;
  private static final int UINT32_VALUE = UInt32Value.VALUE_FIELD_NUMBER << 3 | VARINT;

  private static final Descriptor CLA_TYPE = ClusterLoadAssignment.getDescriptor();
  private static final Descriptor POLICY_TYPE = ClusterLoadAssignment.Policy.getDescriptor();
  private static final Descriptor DROP_TYPE = ClusterLoadAssignment.Policy.DropOverload.getDescriptor();
  private static final Descriptor PERCENT_TYPE = FractionalPercent.getDescriptor();
  private static final Descriptor LLE_TYPE = LocalityLbEndpoints.getDescriptor();
  private static final Descriptor LOCALITY_TYPE = io.envoyproxy.envoy.config.core.v3.Locality.getDescriptor();
  private static final Descriptor LB_ENDPOINT_TYPE = LbEndpoint.getDescriptor();
  private static final Descriptor ENDPOINT_TYPE = io.envoyproxy.envoy.config.endpoint.v3.Endpoint.getDescriptor();
  private static final Descriptor ADDRESS_TYPE = Address.getDescriptor();
  private static final Descriptor SOCKET_TYPE = SocketAddress.getDescriptor();
  private static final Descriptor UINT32_TYPE = UInt32Value.getDescriptor();

  /** {@code CodedInputStream}'s default, which {@code parseFrom} uses. */
  private static final int RECURSION_LIMIT = 100;

  /**
   * Known message fields that no rule reads and that are in no oneof with a field that one does:
   * parsed (so that malformed contents still fail as in {@code parseFrom}) and dropped. Endpoint
   * metadata is common (Istio puts it on every endpoint), so these must not force the fallback.
   */
  private static final Map<FieldDescriptor, Parser<? extends MessageLite>> DISCARDED =
      Map.of(
          LLE_TYPE.findFieldByNumber(LocalityLbEndpoints.METADATA_FIELD_NUMBER), Metadata.parser(),
          LLE_TYPE.findFieldByNumber(LocalityLbEndpoints.PROXIMITY_FIELD_NUMBER), UInt32Value.parser(),
          ENDPOINT_TYPE
              .findFieldByNumber(io.envoyproxy.envoy.config.endpoint.v3.Endpoint.HEALTH_CHECK_CONFIG_FIELD_NUMBER),
          io.envoyproxy.envoy.config.endpoint.v3.Endpoint.HealthCheckConfig.parser(),
          POLICY_TYPE.findFieldByNumber(ClusterLoadAssignment.Policy.ENDPOINT_STALE_AFTER_FIELD_NUMBER), Duration
              .parser());

  private final CodedInputStream in;
  private final AssignmentBuilder assignment;

  private WireEndpointsDecoder(ByteString bytes) {
    in = bytes.newCodedInput();
    assignment = new AssignmentBuilder(bytes.size() / TYPICAL_ENDPOINT_BYTES + 1);
  }

  /** The decoded assignment, or null when the caller must take the parse-then-decode path. */
  static EndpointsUpdate tryDecode(ByteString bytes) {
    try {
      return new WireEndpointsDecoder(bytes).assignment();
    } catch (IOException | XdsResourceException | RuntimeException e) {
      return null; // a broken rule, a Fallback, a parse error: the tree path decides and names it
    }
  }

  private EndpointsUpdate assignment() throws IOException, XdsResourceException {
    String name = "";
    boolean sawPolicy = false;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == CLA_ENDPOINTS) {
        int old = enter();
        localityEntry();
        in.popLimit(old);
      } else if (tag == CLA_CLUSTER_NAME) {
        name = in.readStringRequireUtf8(); // protobuf keeps the last one
      } else if (tag == CLA_POLICY) {
        sawPolicy = once(sawPolicy);
        int old = enter();
        policy();
        in.popLimit(old);
      } else {
        skip(tag, CLA_TYPE, 0);
      }
    }
    assignment.clusterName(name);
    return assignment.build();
  }

  private void localityEntry() throws IOException, XdsResourceException {
    boolean sawLocality = false;
    boolean sawWeight = false;
    LocalityId id = LocalityId.EMPTY;
    long weight = AssignmentBuilder.UNSET;
    long priority = 0;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == LLE_LB_ENDPOINTS) {
        int old = enter();
        lbEndpoint(assignment.nextEndpoint());
        in.popLimit(old);
      } else if (tag == LLE_LOCALITY) {
        sawLocality = once(sawLocality);
        int old = enter();
        id = localityId();
        in.popLimit(old);
      } else if (tag == LLE_WEIGHT) {
        sawWeight = once(sawWeight);
        weight = uint32Value();
      } else if (tag == LLE_PRIORITY) {
        priority = Integer.toUnsignedLong(in.readUInt32());
      } else {
        skip(tag, LLE_TYPE, 1);
      }
    }
    assignment.locality(id, weight, priority); // the weight may follow the endpoints it counts for
  }

  /** Reads one {@code LbEndpoint} into {@code e}. */
  private void lbEndpoint(StagedEndpoint e) throws IOException {
    boolean sawEndpoint = false;
    boolean sawWeight = false;
    boolean sawMetadata = false;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == LB_ENDPOINT) {
        sawEndpoint = once(sawEndpoint);
        e.kind = AddressKind.NO_ADDRESS;
        int old = enter();
        endpoint(e);
        in.popLimit(old);
      } else if (tag == LB_HEALTH_STATUS) {
        e.health = in.readEnum();
      } else if (tag == LB_WEIGHT) {
        sawWeight = once(sawWeight);
        e.weight = uint32Value();
      } else if (tag == LB_METADATA) {
        sawMetadata = once(sawMetadata);
        e.metadata = readMessage(Metadata.parser(), 2);
      } else {
        skip(tag, LB_ENDPOINT_TYPE, 2);
      }
    }
  }

  private void endpoint(StagedEndpoint e) throws IOException {
    boolean sawAddress = false;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == ENDPOINT_ADDRESS) {
        sawAddress = once(sawAddress);
        int old = enter();
        address(e);
        in.popLimit(old);
      } else if (tag == ENDPOINT_HOSTNAME) {
        e.hostname = in.readStringRequireUtf8();
      } else if (tag == ENDPOINT_ADDITIONAL_ADDRESSES) {
        // gRFC A61: parsed as parseFrom would (a repeated message: each entry appends), checked by the builder
        if (e.additional == null) {
          e.additional = new ArrayList<>(1);
        }
        e.additional.add(readMessage(AdditionalAddress.parser(), 3));
      } else {
        skip(tag, ENDPOINT_TYPE, 3);
      }
    }
  }

  private void address(StagedEndpoint e) throws IOException {
    boolean sawSocket = false;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == ADDRESS_SOCKET_ADDRESS) {
        sawSocket = once(sawSocket);
        int old = enter();
        e.kind = AddressKind.SOCKET_ADDRESS;
        socketAddress(e);
        in.popLimit(old);
      } else {
        skip(tag, ADDRESS_TYPE, 4); // pipe, envoy_internal_address: known messages, so a fallback
      }
    }
  }

  private void socketAddress(StagedEndpoint e) throws IOException {
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == SOCKET_ADDRESS) {
        e.ip = in.readStringRequireUtf8();
      } else if (tag == SOCKET_PORT_VALUE) {
        e.port = in.readUInt32();
      } else {
        skip(tag, SOCKET_TYPE, 5); // named_port, resolver_name: known strings, so a fallback
      }
    }
  }

  private LocalityId localityId() throws IOException {
    String region = "";
    String zone = "";
    String subZone = "";
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == LOCALITY_REGION) {
        region = in.readStringRequireUtf8();
      } else if (tag == LOCALITY_ZONE) {
        zone = in.readStringRequireUtf8();
      } else if (tag == LOCALITY_SUB_ZONE) {
        subZone = in.readStringRequireUtf8();
      } else {
        skip(tag, LOCALITY_TYPE, 2);
      }
    }
    return new LocalityId(region, zone, subZone);
  }

  private void policy() throws IOException {
    boolean sawFactor = false;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == POLICY_DROP_OVERLOADS) {
        int old = enter();
        dropOverload();
        in.popLimit(old);
      } else if (tag == POLICY_OVERPROVISIONING_FACTOR) {
        sawFactor = once(sawFactor);
        assignment.overprovisioningFactor(uint32Value());
      } else {
        skip(tag, POLICY_TYPE, 1);
      }
    }
  }

  private void dropOverload() throws IOException {
    String category = "";
    boolean sawPercentage = false;
    long numerator = 0;
    int denominator = FractionalPercent.DenominatorType.HUNDRED_VALUE;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == DROP_CATEGORY) {
        category = in.readStringRequireUtf8();
      } else if (tag == DROP_PERCENTAGE) {
        sawPercentage = once(sawPercentage);
        int old = enter();
        while (true) {
          int inner = in.readTag();
          if (inner == 0) {
            break;
          } else if (inner == PERCENT_NUMERATOR) {
            numerator = Integer.toUnsignedLong(in.readUInt32());
          } else if (inner == PERCENT_DENOMINATOR) {
            denominator = in.readEnum();
          } else {
            skip(inner, PERCENT_TYPE, 3);
          }
        }
        in.popLimit(old);
      } else {
        skip(tag, DROP_TYPE, 2);
      }
    }
    assignment.dropOverload(category, numerator, denominator);
  }

  /**
   * A {@code google.protobuf.UInt32Value} as an unsigned value (0 when its field is unset); the
   * wrapper's own nesting depth is only needed for an unknown field in it, which is skipped anyway.
   */
  private long uint32Value() throws IOException {
    int old = enter();
    int value = 0;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == UINT32_VALUE) {
        value = in.readUInt32();
      } else {
        skip(tag, UINT32_TYPE, 3);
      }
    }
    in.popLimit(old);
    return Integer.toUnsignedLong(value);
  }

  /** Enters a length-delimited submessage; returns the limit to restore. */
  private int enter() throws IOException {
    return in.pushLimit(in.readRawVarint32());
  }

  /** Marks a singular message field seen; a second one would be merged by protobuf: fall back. */
  private static boolean once(boolean seen) {
    if (seen) {
      throw Fallback.INSTANCE;
    }
    return true;
  }

  /**
   * A field this reader does not interpret, in a message nested {@code depth} deep (the assignment
   * is 0): an unknown number is skipped (protobuf keeps it aside unread); a known singular number,
   * bool or enum with its own wire type is skipped too (parsing it cannot fail differently); a
   * {@link #DISCARDED} message is parsed as {@code parseFrom} would, then dropped; anything else
   * (strings, other messages, groups, a wire type that does not match) makes the tree path decide.
   */
  private void skip(int tag, Descriptor type, int depth) throws IOException {
    int wireType = WireFormat.getTagWireType(tag);
    if (wireType == WireFormat.WIRETYPE_START_GROUP || wireType == WireFormat.WIRETYPE_END_GROUP) {
      throw Fallback.INSTANCE;
    }
    FieldDescriptor field = type.findFieldByNumber(WireFormat.getTagFieldNumber(tag));
    if (field == null || (isPlainScalar(field) && field.getLiteType().getWireType() == wireType)) {
      if (!in.skipField(tag)) {
        throw Fallback.INSTANCE;
      }
      return;
    }
    Parser<? extends MessageLite> parser = DISCARDED.get(field);
    if (parser == null || wireType != LD) {
      throw Fallback.INSTANCE;
    }
    readMessage(parser, depth);
  }

  /** Parses a message field nested {@code depth} deep as {@code parseFrom} would. */
  private <T extends MessageLite> T readMessage(Parser<T> parser, int depth) throws IOException {
    // parseFrom would parse it at this depth under its recursion limit (100): the stream has not
    // counted the levels this reader entered by hand, so lower the limit by as many.
    int limit = in.setRecursionLimit(RECURSION_LIMIT - depth);
    try {
      T message = in.readMessage(parser, ExtensionRegistryLite.getEmptyRegistry());
      if (!message.isInitialized()) {
        throw Fallback.INSTANCE;
      }
      return message;
    } finally {
      in.setRecursionLimit(limit);
    }
  }

  private static boolean isPlainScalar(FieldDescriptor field) {
    switch (field.getJavaType()) {
      case STRING:
      case BYTE_STRING:
      case MESSAGE:
        return false;
      default:
        return !field.isRepeated();
    }
  }

  /** Thrown to abandon the fast path; preallocated and without a stack trace, it costs nothing. */
  private static final class Fallback extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final Fallback INSTANCE = new Fallback();

    private Fallback() {
      super("fall back to parse + decode", null, false, false);
    }
  }
}
