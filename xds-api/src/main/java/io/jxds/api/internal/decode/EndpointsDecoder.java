package io.jxds.api.internal.decode;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.DropOverload;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.HealthStatus;
import io.jxds.api.model.Locality;
import io.jxds.api.model.LocalityId;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Validates an envoy v3 {@code ClusterLoadAssignment} into an {@link EndpointsUpdate}.
 *
 * <p>Rules (gRFC A27; a broken rule is a NACK naming the assignment, the field and the value):
 *
 * <ul>
 *   <li>{@code cluster_name} non-empty;
 *   <li>a locality whose {@code load_balancing_weight} is unset or 0 is ignored, before any other
 *       rule looks at it (gRFC A27; grpc-java and gRPC C++ do the same, where Envoy's API would
 *       reject an explicit 0): it takes no traffic, and its id is kept in {@link
 *       EndpointsUpdate#unweightedLocalities()} so that "no usable endpoints" can say why;
 *   <li>the remaining priorities are contiguous from 0; a locality appears once per priority;
 *       the locality weights of one priority sum to at most 2^32-1 (gRFC A27; grpc-java does not
 *       check and can fail later in its picker);
 *   <li>every endpoint is {@code endpoint.address.socket_address} with an IP literal, no
 *       {@code resolver_name} and a {@code port_value} in 1..65535, and no address appears twice in
 *       the assignment;
 *   <li>an endpoint weight unset means 1, and 0 is a NACK ({@code load_balancing_weight} is
 *       {@code uint32 gte 1} in the xDS API; Envoy and gRPC C++ reject it, grpc-java reads it as 1,
 *       which would keep sending traffic to an endpoint being drained); the endpoint weights of one
 *       locality sum to at most 2^32-1;
 *   <li>{@code policy.drop_overloads} become parts per million (HUNDRED ×10 000, TEN_THOUSAND
 *       ×100, MILLION ×1), clamped to 1 000 000; another denominator is a NACK;
 *   <li>{@code policy.overprovisioning_factor} is kept (default 140);
 *   <li>an endpoint's {@code metadata.filter_metadata["envoy.lb"].hash_key}, when a string, is its
 *       key on a hash ring (gRFC A76).
 * </ul>
 *
 * <p>An endpoint {@code health_status} outside envoy's six values is read as UNHEALTHY: the
 * endpoint is kept but takes no traffic, as grpc-java does, rather than rejecting the update.
 */
public final class EndpointsDecoder {
  static final String KIND = "ClusterLoadAssignment";
  private static final long MAX_UINT32 = 0xFFFF_FFFFL;
  private static final String ENVOY_LB_METADATA = "envoy.lb";
  private static final String HASH_KEY_FIELD = "hash_key";

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
   * about (merged submessages, metadata, malformed bytes...), is parsed and decoded the tree way,
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

  private static EndpointsUpdate decodeChecked(ClusterLoadAssignment cla, String name)
      throws XdsResourceException {
    if (name.isEmpty()) {
      throw Nack.of(KIND, name, "cluster_name must not be empty", "\"\"");
    }
    int count = cla.getEndpointsCount();
    int endpointCount = 0;
    int largestLocality = 0;
    for (int i = 0; i < count; i++) {
      int n = cla.getEndpoints(i).getLbEndpointsCount();
      endpointCount += n;
      largestLocality = Math.max(largestLocality, n);
    }
    Gathered gathered = new Gathered(largestLocality);
    List<Locality> localities = new ArrayList<>(count);
    List<LocalityId> unweighted = new ArrayList<>();
    AddressSet addresses = new AddressSet(endpointCount);
    IpLiteral.Parser ips = new IpLiteral.Parser();
    Set<PriorityLocality> seenLocalities = new HashSet<>();
    // Priorities that survive must be 0..k-1 with k <= count, so index count is a safe bound.
    long[] weightByPriority = new long[count + 1];
    boolean[] present = new boolean[count + 1];
    long highest = -1;
    for (int i = 0; i < count; i++) {
      LocalityLbEndpoints entry = cla.getEndpoints(i);
      long weight =
          entry.hasLoadBalancingWeight() ? Integer.toUnsignedLong(entry.getLoadBalancingWeight().getValue()) : 0;
      LocalityId id =
          entry.hasLocality()
              ? new LocalityId(
                  entry.getLocality().getRegion(),
                  entry.getLocality().getZone(),
                  entry.getLocality().getSubZone())
              : LocalityId.EMPTY;
      if (weight == 0) {
        unweighted.add(id); // gRFC A27: a locality without weight takes no traffic; skipped
        continue;
      }
      long priority = Integer.toUnsignedLong(entry.getPriority());
      highest = Math.max(highest, priority);
      if (!seenLocalities.add(new PriorityLocality(priority, id))) {
        throw Nack.of(
            KIND, name, "endpoints[" + i + "].locality must be unique within priority " + priority, id + " again");
      }
      List<Endpoint> endpoints = endpoints(entry, i, name, addresses, ips, gathered);
      if (priority > count) {
        continue; // the contiguity check below names the gap
      }
      present[(int) priority] = true;
      weightByPriority[(int) priority] += weight;
      localities.add(new Locality(id, (int) priority, weight, endpoints));
    }
    checkPriorities(name, present, highest, weightByPriority);
    return new EndpointsUpdate(
        name, localities, dropOverloads(cla, name), overprovisioningFactor(cla, name), unweighted);
  }

  private static void checkPriorities(String name, boolean[] present, long highest, long[] weightByPriority)
      throws XdsResourceException {
    long last = Math.min(highest, present.length - 1);
    for (int p = 0; p <= last; p++) {
      if (!present[p]) {
        throw Nack.of(
            KIND,
            name,
            "endpoints[].priority must be contiguous from 0 (weight-0 localities do not count)",
            "priorities up to " + highest + " without " + p);
      }
      if (weightByPriority[p] > MAX_UINT32) {
        throw Nack.of(
            KIND,
            name,
            "endpoints[].load_balancing_weight must sum to at most 4294967295 within priority " + p,
            weightByPriority[p]);
      }
    }
  }

  private static List<Endpoint> endpoints(
      LocalityLbEndpoints entry,
      int i,
      String name,
      AddressSet addresses,
      IpLiteral.Parser ips,
      Gathered gathered)
      throws XdsResourceException {
    int n = entry.getLbEndpointsCount();
    // Pass 1 reads what pass 2 needs from the freshly parsed tree (several MB, out of cache by
    // now) with loads that do not depend on each other, so the CPU overlaps their cache misses;
    // interleaved with pass 2's work they were taken one at a time (decode was ~2x parse).
    for (int j = 0; j < n; j++) {
      LbEndpoint lb = entry.getLbEndpoints(j);
      gathered.texts[j] = lb.getEndpoint().getAddress().getSocketAddress().getAddress();
      gathered.weights[j] = lb.hasLoadBalancingWeight() ? lb.getLoadBalancingWeight().getValue() : 1;
    }
    List<Endpoint> endpoints = new ArrayList<>(n);
    long sum = 0;
    for (int j = 0; j < n; j++) {
      Endpoint endpoint = endpoint(entry.getLbEndpoints(j), gathered.texts[j], gathered.weights[j], i, j, name, ips);
      if (!addresses.add(endpoint.address(), ips.lastHash())) {
        throw Nack.of(
            KIND,
            name,
            path(i, j) + "endpoint.address must be unique in the assignment",
            addressText(endpoint.address()) + " again");
      }
      sum += endpoint.weight();
      endpoints.add(endpoint);
    }
    if (sum > MAX_UINT32) {
      throw Nack.of(
          KIND, name, "endpoints[" + i + "].lb_endpoints[].load_balancing_weight must sum to at most 4294967295", sum);
    }
    return endpoints;
  }

  private static Endpoint endpoint(
      LbEndpoint lb, String ipText, int rawWeight, int i, int j, String name, IpLiteral.Parser ips)
      throws XdsResourceException {
    if (!lb.hasEndpoint()) {
      throw Nack.of(
          KIND,
          name,
          path(i, j) + "endpoint must be set",
          lb.getHostIdentifierCase() == LbEndpoint.HostIdentifierCase.ENDPOINT_NAME ? "endpoint_name" : "unset");
    }
    io.envoyproxy.envoy.config.endpoint.v3.Endpoint endpoint = lb.getEndpoint();
    Address address = endpoint.getAddress();
    if (address.getAddressCase() != Address.AddressCase.SOCKET_ADDRESS) {
      throw Nack.of(KIND, name, path(i, j) + "endpoint.address.socket_address must be set", addressKind(address));
    }
    SocketAddress socket = address.getSocketAddress();
    if (!socket.getResolverName().isEmpty()) {
      throw Nack.of(
          KIND,
          name,
          path(i, j) + "endpoint.address.socket_address.resolver_name must be empty",
          Nack.quote(socket.getResolverName()));
    }
    if (socket.getPortSpecifierCase() == SocketAddress.PortSpecifierCase.NAMED_PORT) {
      throw Nack.of(
          KIND,
          name,
          path(i, j) + "endpoint.address.socket_address.port_value must be set",
          "named_port " + Nack.quote(socket.getNamedPort()));
    }
    int port = socket.getPortValue();
    if (port < 1 || port > 65535) {
      throw Nack.of(
          KIND,
          name,
          path(i, j) + "endpoint.address.socket_address.port_value must be in [1, 65535]",
          Integer.toUnsignedString(port));
    }
    InetAddress ip = ips.parse(ipText);
    if (ip == null) {
      throw Nack.of(
          KIND,
          name,
          path(i, j) + "endpoint.address.socket_address.address must be an IP literal",
          Nack.quote(socket.getAddress()));
    }
    if (rawWeight == 0) {
      // xDS API: lb_endpoints[].load_balancing_weight is uint32 gte 1; unset (read as 1 above) is 1
      throw Nack.of(KIND, name, path(i, j) + "load_balancing_weight must be at least 1", 0);
    }
    return new Endpoint(
        new InetSocketAddress(ip, port),
        health(lb.getHealthStatusValue()),
        Integer.toUnsignedLong(rawWeight),
        endpoint.getHostname(),
        hashKey(lb.getMetadata()));
  }

  /**
   * gRFC A76: an endpoint's key on a hash ring is {@code metadata.filter_metadata["envoy.lb"]}'s
   * {@code hash_key} when that is a string; anything else (absent, another kind) means "use the
   * address", not an error.
   */
  static String hashKey(Metadata metadata) {
    Struct lb = metadata.getFilterMetadataMap().get(ENVOY_LB_METADATA);
    if (lb == null) {
      return "";
    }
    Value key = lb.getFieldsMap().get(HASH_KEY_FIELD);
    return key != null && key.getKindCase() == Value.KindCase.STRING_VALUE ? key.getStringValue() : "";
  }

  private static List<DropOverload> dropOverloads(ClusterLoadAssignment cla, String name)
      throws XdsResourceException {
    ClusterLoadAssignment.Policy policy = cla.getPolicy();
    int n = policy.getDropOverloadsCount();
    List<DropOverload> drops = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      ClusterLoadAssignment.Policy.DropOverload drop = policy.getDropOverloads(k);
      FractionalPercent percent = drop.getDropPercentage();
      long perMillionFactor = perMillionFactor(percent.getDenominatorValue());
      if (perMillionFactor < 0) {
        throw Nack.of(
            KIND,
            name,
            "policy.drop_overloads[" + k + "].drop_percentage.denominator must be HUNDRED, TEN_THOUSAND or MILLION",
            percent.getDenominatorValue());
      }
      long ppm = Integer.toUnsignedLong(percent.getNumerator()) * perMillionFactor;
      drops.add(new DropOverload(drop.getCategory(), (int) Math.min(ppm, DropOverload.MILLION)));
    }
    return drops;
  }

  private static int overprovisioningFactor(ClusterLoadAssignment cla, String name) throws XdsResourceException {
    ClusterLoadAssignment.Policy policy = cla.getPolicy();
    if (!policy.hasOverprovisioningFactor()) {
      return EndpointsUpdate.DEFAULT_OVERPROVISIONING_FACTOR;
    }
    int factor = policy.getOverprovisioningFactor().getValue();
    if (factor < 0) {
      throw Nack.of(
          KIND, name, "policy.overprovisioning_factor must be at most 2147483647", Integer.toUnsignedString(factor));
    }
    return factor;
  }

  /** What one unit of a FractionalPercent with this denominator is in parts per million; -1 if unknown. */
  static long perMillionFactor(int denominator) {
    switch (denominator) {
      case FractionalPercent.DenominatorType.HUNDRED_VALUE:
        return 10_000;
      case FractionalPercent.DenominatorType.TEN_THOUSAND_VALUE:
        return 100;
      case FractionalPercent.DenominatorType.MILLION_VALUE:
        return 1;
      default:
        return -1;
    }
  }

  static HealthStatus health(int envoyValue) {
    switch (envoyValue) {
      case io.envoyproxy.envoy.config.core.v3.HealthStatus.UNKNOWN_VALUE:
        return HealthStatus.UNKNOWN;
      case io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY_VALUE:
        return HealthStatus.HEALTHY;
      case io.envoyproxy.envoy.config.core.v3.HealthStatus.DRAINING_VALUE:
        return HealthStatus.DRAINING;
      case io.envoyproxy.envoy.config.core.v3.HealthStatus.TIMEOUT_VALUE:
        return HealthStatus.TIMEOUT;
      case io.envoyproxy.envoy.config.core.v3.HealthStatus.DEGRADED_VALUE:
        return HealthStatus.DEGRADED;
      default:
        return HealthStatus.UNHEALTHY; // UNHEALTHY itself, and values newer than this code
    }
  }

  private static String path(int i, int j) {
    return "endpoints[" + i + "].lb_endpoints[" + j + "].";
  }

  private static String addressKind(Address address) {
    switch (address.getAddressCase()) {
      case PIPE:
        return "pipe";
      case ENVOY_INTERNAL_ADDRESS:
        return "envoy_internal_address";
      default:
        return "unset";
    }
  }

  private static String addressText(InetSocketAddress address) {
    String ip = address.getAddress().getHostAddress();
    return ip.indexOf(':') >= 0 ? "[" + ip + "]:" + address.getPort() : ip + ":" + address.getPort();
  }

  /** One locality's address texts and raw weights (1 when unset), read ahead of validation; reused. */
  private static final class Gathered {
    final String[] texts;
    final int[] weights;

    Gathered(int n) {
      texts = new String[n];
      weights = new int[n];
    }
  }

  /** The key of the "once per priority" rule. */
  private record PriorityLocality(long priority, LocalityId id) {}
}
