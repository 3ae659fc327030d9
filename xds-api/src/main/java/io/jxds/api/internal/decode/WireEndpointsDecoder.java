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
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.jxds.api.model.DropOverload;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.Locality;
import io.jxds.api.model.LocalityId;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fast path of {@link EndpointsDecoder#decode(ByteString)}: reads a ClusterLoadAssignment's
 * wire bytes once with {@link CodedInputStream} and builds the {@link EndpointsUpdate} directly,
 * without the protobuf message tree (about 8 MB for 10 000 endpoints, which the tree decoder had
 * to bring back into the cache after {@code parseFrom} built it).
 *
 * <p>It only ever <em>accepts</em>: it returns null ("fall back") for anything it is not sure
 * about, and the caller then runs {@code parseFrom} + {@link EndpointsDecoder#decode(ClusterLoadAssignment)},
 * which gives the exact parse error or NACK message. So that an accepted result is always the one
 * the tree path would give, it falls back on:
 *
 * <ul>
 *   <li>any rule the tree decoder would reject (bad address, port, duplicate, priority gap, weight
 *       sums, endpoint weight 0, empty name, denominator, overprovisioning factor) — detected, then
 *       left to the tree decoder for the message;
 *   <li>malformed wire data, groups (wire types 3 and 4), a known field with an unexpected wire type;
 *   <li>a singular message field seen twice in one message: protobuf merges those, this reader
 *       does not (a repeated scalar field takes the last value, as protobuf does);
 *   <li>a known field it does not interpret, unless it is a singular number, bool or enum (skipped)
 *       or one of the messages no rule reads (locality {@code metadata},
 *       {@code health_check_config}, {@code additional_addresses}, {@code proximity},
 *       {@code endpoint_stale_after}: parsed like {@code parseFrom} would, then dropped). So
 *       strings (protobuf checks their UTF-8), {@code named_port}, {@code resolver_name},
 *       {@code pipe}, {@code envoy_internal_address}, {@code endpoint_name},
 *       {@code named_endpoints}, {@code load_balancer_endpoints} and LEDS fall back.
 * </ul>
 *
 * <p>An endpoint's {@code metadata} is parsed as {@code parseFrom} would and read for its ring
 * hash key (gRFC A76); seen twice in one endpoint (protobuf would merge), it falls back.
 *
 * <p>Unknown field numbers are skipped, as {@code parseFrom} keeps them aside unread. Field
 * numbers are the generated {@code *_FIELD_NUMBER} constants (checked against the descriptors in
 * {@code WireEndpointsDecoderTest}).
 */
final class WireEndpointsDecoder {
  private static final long MAX_UINT32 = 0xFFFF_FFFFL;
  /** The fewest wire bytes an endpoint the decoder accepts can take (a 2-char IP and a port). */
  private static final int MIN_ENDPOINT_BYTES = 14;

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
          ENDPOINT_TYPE
              .findFieldByNumber(io.envoyproxy.envoy.config.endpoint.v3.Endpoint.ADDITIONAL_ADDRESSES_FIELD_NUMBER),
          io.envoyproxy.envoy.config.endpoint.v3.Endpoint.AdditionalAddress.parser(),
          POLICY_TYPE.findFieldByNumber(ClusterLoadAssignment.Policy.ENDPOINT_STALE_AFTER_FIELD_NUMBER), Duration
              .parser());

  private final CodedInputStream in;
  private final int maxEndpoints;
  private final IpLiteral.Parser ips = new IpLiteral.Parser();
  private final AddressSet addresses;
  private final Set<PriorityLocality> seenLocalities = new HashSet<>();
  private final List<Locality> localities = new ArrayList<>();
  private final List<LocalityId> unweighted = new ArrayList<>();
  private long highestPriority = -1;
  private int acceptedEndpoints;

  // One locality entry's endpoints, staged until its weight (field 3, after lb_endpoints on the
  // wire) says whether the entry counts at all; reused across entries.
  private int staged;
  private String[] texts = new String[16];
  private int[] ports = new int[16];
  private int[] healths = new int[16];
  private int[] weights = new int[16];
  private String[] hostnames = new String[16];
  private String[] hashKeys = new String[16];

  private WireEndpointsDecoder(ByteString bytes) {
    in = bytes.newCodedInput();
    maxEndpoints = bytes.size() / MIN_ENDPOINT_BYTES + 1;
    addresses = new AddressSet(maxEndpoints);
  }

  /** The decoded assignment, or null when the caller must take the parse-then-decode path. */
  static EndpointsUpdate tryDecode(ByteString bytes) {
    try {
      return new WireEndpointsDecoder(bytes).assignment();
    } catch (IOException | RuntimeException e) {
      return null; // Fallback, a parse error, or a model constructor's complaint: the tree path decides
    }
  }

  private EndpointsUpdate assignment() throws IOException {
    String name = "";
    boolean sawPolicy = false;
    List<DropOverload> drops = List.of();
    int overprovisioning = EndpointsUpdate.DEFAULT_OVERPROVISIONING_FACTOR;
    int entries = 0;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == CLA_ENDPOINTS) {
        int old = enter();
        localityEntry(entries++);
        in.popLimit(old);
      } else if (tag == CLA_CLUSTER_NAME) {
        name = in.readStringRequireUtf8();
      } else if (tag == CLA_POLICY) {
        sawPolicy = once(sawPolicy);
        int old = enter();
        drops = new ArrayList<>();
        overprovisioning = policy(drops);
        in.popLimit(old);
      } else {
        skip(tag, CLA_TYPE, 0);
      }
    }
    if (name.isEmpty()) {
      throw Fallback.INSTANCE;
    }
    checkPriorities();
    return new EndpointsUpdate(name, localities, drops, overprovisioning, unweighted);
  }

  /** gRFC A27: the priorities left after dropping weight-0 localities are 0..k-1, with weight sums. */
  private void checkPriorities() {
    if (highestPriority >= localities.size()) {
      throw Fallback.INSTANCE; // k priorities need at least k localities: there is a gap
    }
    int k = (int) highestPriority + 1;
    boolean[] present = new boolean[k];
    long[] sums = new long[k];
    for (Locality l : localities) {
      present[l.priority()] = true;
      sums[l.priority()] += l.weight();
    }
    for (int p = 0; p < k; p++) {
      if (!present[p] || sums[p] > MAX_UINT32) {
        throw Fallback.INSTANCE;
      }
    }
  }

  private void localityEntry(int index) throws IOException {
    boolean sawLocality = false;
    boolean sawWeight = false;
    LocalityId id = LocalityId.EMPTY;
    long weight = 0;
    long priority = 0;
    staged = 0;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == LLE_LB_ENDPOINTS) {
        int old = enter();
        lbEndpoint();
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
    if (weight == 0) {
      unweighted.add(id); // gRFC A27: a locality without weight is ignored, and not validated
      return;
    }
    highestPriority = Math.max(highestPriority, priority);
    if (priority > Integer.MAX_VALUE || !seenLocalities.add(new PriorityLocality(priority, id))) {
      throw Fallback.INSTANCE; // a huge priority leaves a gap; a locality twice is a NACK
    }
    localities.add(new Locality(id, (int) priority, weight, endpoints()));
  }

  /** Validates the staged endpoints of an entry that counts, in order. */
  private List<Endpoint> endpoints() {
    List<Endpoint> out = new ArrayList<>(staged);
    long sum = 0;
    for (int j = 0; j < staged; j++) {
      String text = texts[j];
      int port = ports[j];
      if (text == null || port < 1 || port > 65535 || ++acceptedEndpoints > maxEndpoints) {
        throw Fallback.INSTANCE;
      }
      InetAddress ip = ips.parse(text);
      if (ip == null) {
        throw Fallback.INSTANCE;
      }
      InetSocketAddress address = new InetSocketAddress(ip, port);
      if (!addresses.add(address, ips.lastHash())) {
        throw Fallback.INSTANCE;
      }
      long weight = Integer.toUnsignedLong(weights[j]); // unset was staged as 1
      if (weight == 0) {
        throw Fallback.INSTANCE; // load_balancing_weight is uint32 gte 1: a NACK
      }
      sum += weight;
      out.add(new Endpoint(address, EndpointsDecoder.health(healths[j]), weight, hostnames[j], hashKeys[j]));
    }
    if (sum > MAX_UINT32) {
      throw Fallback.INSTANCE;
    }
    return out;
  }

  /** Stages one {@code LbEndpoint}; a null text marks one without a socket address. */
  private void lbEndpoint() throws IOException {
    if (staged == texts.length) {
      grow();
    }
    int j = staged++;
    texts[j] = null;
    ports[j] = 0;
    healths[j] = 0;
    weights[j] = 1; // unset means 1; an explicit 0 stays 0 (a NACK if the locality counts)
    hostnames[j] = "";
    hashKeys[j] = "";
    boolean sawEndpoint = false;
    boolean sawWeight = false;
    boolean sawMetadata = false;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == LB_ENDPOINT) {
        sawEndpoint = once(sawEndpoint);
        int old = enter();
        endpoint(j);
        in.popLimit(old);
      } else if (tag == LB_HEALTH_STATUS) {
        healths[j] = in.readEnum();
      } else if (tag == LB_WEIGHT) {
        sawWeight = once(sawWeight);
        weights[j] = (int) uint32Value();
      } else if (tag == LB_METADATA) {
        sawMetadata = once(sawMetadata);
        hashKeys[j] = EndpointsDecoder.hashKey(readMessage(Metadata.parser(), 2));
      } else {
        skip(tag, LB_ENDPOINT_TYPE, 2);
      }
    }
  }

  private void endpoint(int j) throws IOException {
    boolean sawAddress = false;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == ENDPOINT_ADDRESS) {
        sawAddress = once(sawAddress);
        int old = enter();
        address(j);
        in.popLimit(old);
      } else if (tag == ENDPOINT_HOSTNAME) {
        hostnames[j] = in.readStringRequireUtf8();
      } else {
        skip(tag, ENDPOINT_TYPE, 3);
      }
    }
  }

  private void address(int j) throws IOException {
    boolean sawSocket = false;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == ADDRESS_SOCKET_ADDRESS) {
        sawSocket = once(sawSocket);
        int old = enter();
        texts[j] = "";
        socketAddress(j);
        in.popLimit(old);
      } else {
        skip(tag, ADDRESS_TYPE, 4); // pipe, envoy_internal_address: known messages, so a fallback
      }
    }
  }

  private void socketAddress(int j) throws IOException {
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == SOCKET_ADDRESS) {
        texts[j] = in.readStringRequireUtf8();
      } else if (tag == SOCKET_PORT_VALUE) {
        ports[j] = in.readUInt32();
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

  /** Reads {@code policy}; adds its drops to {@code drops}, returns the overprovisioning factor. */
  private int policy(List<DropOverload> drops) throws IOException {
    boolean sawFactor = false;
    long factor = EndpointsUpdate.DEFAULT_OVERPROVISIONING_FACTOR;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      } else if (tag == POLICY_DROP_OVERLOADS) {
        int old = enter();
        drops.add(dropOverload());
        in.popLimit(old);
      } else if (tag == POLICY_OVERPROVISIONING_FACTOR) {
        sawFactor = once(sawFactor);
        factor = uint32Value();
      } else {
        skip(tag, POLICY_TYPE, 1);
      }
    }
    if (factor > Integer.MAX_VALUE) {
      throw Fallback.INSTANCE;
    }
    return (int) factor;
  }

  private DropOverload dropOverload() throws IOException {
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
    long ppm = numerator * EndpointsDecoder.perMillionFactor(denominator);
    if (ppm < 0) {
      throw Fallback.INSTANCE; // an unknown denominator (-1): a NACK
    }
    return new DropOverload(category, (int) Math.min(ppm, DropOverload.MILLION));
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

  private void grow() {
    int n = texts.length * 2;
    texts = Arrays.copyOf(texts, n);
    ports = Arrays.copyOf(ports, n);
    healths = Arrays.copyOf(healths, n);
    weights = Arrays.copyOf(weights, n);
    hostnames = Arrays.copyOf(hostnames, n);
    hashKeys = Arrays.copyOf(hashKeys, n);
  }

  /** The key of the "once per priority" rule. */
  private record PriorityLocality(long priority, LocalityId id) {}

  /** Thrown to abandon the fast path; preallocated and without a stack trace, it costs nothing. */
  private static final class Fallback extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final Fallback INSTANCE = new Fallback();

    private Fallback() {
      super("fall back to parse + decode", null, false, false);
    }
  }
}
