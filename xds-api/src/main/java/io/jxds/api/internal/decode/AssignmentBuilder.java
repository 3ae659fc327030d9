package io.jxds.api.internal.decode;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint.AdditionalAddress;
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
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Every rule of a ClusterLoadAssignment, in one place: the tree reader ({@link EndpointsDecoder})
 * and the one-pass wire reader ({@link WireEndpointsDecoder}) feed it what they read, field by
 * field, and it checks each rule and builds the {@link EndpointsUpdate}. The readers only read.
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
 *       {@code resolver_name} and a {@code port_value} in 1..65535; so is each of its {@code
 *       endpoint.additional_addresses[k].address}, which must be set (gRFC A61); and no address,
 *       primary or additional, appears twice in the assignment (gRFC A61: an endpoint is its set of
 *       addresses, so one address cannot belong to two; gRPC C++ rejects it too);
 *   <li>an endpoint weight unset means 1, and 0 is a NACK ({@code load_balancing_weight} is
 *       {@code uint32 gte 1} in the xDS API; Envoy and gRPC C++ reject it, grpc-java reads it as 1,
 *       which would keep sending traffic to an endpoint being drained); the endpoint weights of one
 *       locality sum to at most 2^32-1;
 *   <li>{@code policy.drop_overloads} become parts per million (HUNDRED ×10 000, TEN_THOUSAND
 *       ×100, MILLION ×1), clamped to 1 000 000; another denominator is a NACK;
 *   <li>{@code policy.overprovisioning_factor} is kept (default 140), at most 2^31-1;
 *   <li>an endpoint's {@code metadata.filter_metadata["envoy.lb"].hash_key}, when a string, is its
 *       key on a hash ring (gRFC A76).
 * </ul>
 *
 * <p>An endpoint {@code health_status} outside envoy's six values is read as UNHEALTHY: the
 * endpoint is kept but takes no traffic, as grpc-java does, rather than rejecting the update.
 *
 * <p>How a reader feeds it: {@link #clusterName}; for each {@code endpoints[i]}, one {@link
 * #nextEndpoint} per {@code lb_endpoints[j]}, filled with what was read, then {@link #locality}
 * with the entry's own fields (on the wire the weight may follow the endpoints, so endpoints wait
 * for it); {@link #dropOverload} and {@link #overprovisioningFactor} at any time; then {@link
 * #build}. The first rule broken is the one reported, so the message depends on the order of the
 * calls: name, then each locality in order (its uniqueness, then each endpoint's rules in order,
 * then its weight sum), then, in {@link #build}, priorities, drops and the factor. The tree reader
 * calls in that order; the one-pass reader may not (the name can come last on the wire), which is
 * why it never shows a complaint of its own but leaves the message to the tree reader.
 *
 * <p>Cheap by design, for the one-pass reader: staging reuses its slots, and nothing is allocated
 * per endpoint beyond the model's {@code InetAddress}, {@code InetSocketAddress} and {@code Endpoint}.
 */
final class AssignmentBuilder {
  static final String KIND = "ClusterLoadAssignment";
  /** A {@code google.protobuf.UInt32Value} field that is absent (a present one is 0..2^32-1). */
  static final long UNSET = -1;
  private static final long MAX_UINT32 = 0xFFFF_FFFFL;
  private static final String ENVOY_LB_METADATA = "envoy.lb";
  private static final String HASH_KEY_FIELD = "hash_key";

  private final IpLiteral.Parser ips = new IpLiteral.Parser();
  private final AddressSet addresses;
  private final Set<PriorityLocality> seenLocalities = new HashSet<>();
  private final List<Locality> localities = new ArrayList<>();
  private final List<LocalityId> unweighted = new ArrayList<>();
  private final List<DropInput> drops = new ArrayList<>(2);
  private String name = "";
  private int entries;
  private int weightedEntries;
  private long highestPriority = -1;
  private long overprovisioningFactor = UNSET;
  private StagedEndpoint[] staged = new StagedEndpoint[0];
  private int stagedCount;

  /** A builder for about {@code expectedEndpoints} endpoints (a sizing hint, not a limit). */
  AssignmentBuilder(int expectedEndpoints) {
    addresses = new AddressSet(expectedEndpoints);
  }

  /** The assignment's {@code cluster_name}: checked at once, and named in every later complaint. */
  void clusterName(String clusterName) throws XdsResourceException {
    name = clusterName;
    if (clusterName.isEmpty()) {
      throw Nack.of(KIND, name, "cluster_name must not be empty", "\"\"");
    }
  }

  /**
   * A blank slot for the next {@code lb_endpoints[j]} of the current locality, for the reader to
   * fill; it is checked when {@link #locality} closes the entry.
   */
  StagedEndpoint nextEndpoint() {
    if (stagedCount == staged.length) {
      growStaging();
    }
    StagedEndpoint e = staged[stagedCount++];
    e.clear();
    return e;
  }

  /**
   * Closes {@code endpoints[i]} (i counts the calls): its {@code locality}, {@code
   * load_balancing_weight} ({@link #UNSET} when absent) and {@code priority} (unsigned), with the
   * endpoints staged since the previous call.
   */
  void locality(LocalityId id, long weight, long priority) throws XdsResourceException {
    int i = entries++;
    int n = stagedCount;
    stagedCount = 0;
    if (weight == UNSET || weight == 0) {
      unweighted.add(id); // gRFC A27: a locality without weight takes no traffic; not validated
      return;
    }
    highestPriority = Math.max(highestPriority, priority);
    if (!seenLocalities.add(new PriorityLocality(priority, id))) {
      throw Nack.of(
          KIND, name, "endpoints[" + i + "].locality must be unique within priority " + priority, id + " again");
    }
    List<Endpoint> endpoints = endpoints(i, n);
    weightedEntries++;
    if (priority <= Integer.MAX_VALUE) { // a larger one leaves a gap, which build() names
      localities.add(new Locality(id, (int) priority, weight, endpoints));
    }
  }

  /** A {@code policy.drop_overloads} entry: its category and {@code drop_percentage} as read. */
  void dropOverload(String category, long numerator, int denominator) {
    drops.add(new DropInput(category, numerator, denominator));
  }

  /** {@code policy.overprovisioning_factor}, when present (unsigned). */
  void overprovisioningFactor(long factor) {
    overprovisioningFactor = factor;
  }

  /** Checks what needs the whole assignment, then builds it. */
  EndpointsUpdate build() throws XdsResourceException {
    checkPriorities();
    List<DropOverload> dropOverloads = dropOverloads();
    int factor = overprovisioningFactor();
    return new EndpointsUpdate(name, localities, dropOverloads, factor, unweighted);
  }

  private void growStaging() {
    staged = Arrays.copyOf(staged, Math.max(16, stagedCount * 2));
    for (int j = stagedCount; j < staged.length; j++) {
      staged[j] = new StagedEndpoint();
    }
  }

  private List<Endpoint> endpoints(int i, int n) throws XdsResourceException {
    List<Endpoint> endpoints = new ArrayList<>(n);
    long sum = 0;
    for (int j = 0; j < n; j++) {
      Endpoint endpoint = endpoint(staged[j], i, j);
      sum += endpoint.weight();
      endpoints.add(endpoint);
    }
    if (sum > MAX_UINT32) {
      throw Nack.of(
          KIND, name, "endpoints[" + i + "].lb_endpoints[].load_balancing_weight must sum to at most 4294967295", sum);
    }
    return endpoints;
  }

  private Endpoint endpoint(StagedEndpoint e, int i, int j) throws XdsResourceException {
    if (e.kind != AddressKind.SOCKET_ADDRESS) {
      throw endpointNack(i, j, e.kind.mustBeSet, e.kind.got);
    }
    InetSocketAddress address =
        socketAddress(i, j, "endpoint.address", e.ip, e.port, e.resolverName, e.namedPort);
    if (e.weight == 0) {
      // xDS API: lb_endpoints[].load_balancing_weight is uint32 gte 1; unset is 1
      throw endpointNack(i, j, "load_balancing_weight must be at least 1", 0);
    }
    return new Endpoint(
        address,
        health(e.health),
        e.weight == UNSET ? 1 : e.weight,
        e.hostname,
        e.metadata == null ? "" : hashKey(e.metadata),
        e.additional == null ? List.of() : additionalAddresses(e.additional, i, j));
  }

  /**
   * gRFC A61: each {@code endpoint.additional_addresses[k].address} must be set, and is checked as
   * {@code endpoint.address} is (and is unique in the assignment as well).
   */
  private List<InetSocketAddress> additionalAddresses(List<AdditionalAddress> entries, int i, int j)
      throws XdsResourceException {
    List<InetSocketAddress> out = new ArrayList<>(entries.size());
    for (int k = 0; k < entries.size(); k++) {
      AdditionalAddress entry = entries.get(k);
      String field = "endpoint.additional_addresses[" + k + "].address";
      if (!entry.hasAddress()) {
        throw endpointNack(i, j, field + " must be set", "unset");
      }
      Address address = entry.getAddress();
      if (!address.hasSocketAddress()) {
        throw endpointNack(i, j, field + ".socket_address must be set", switch (address.getAddressCase()) {
          case PIPE -> "pipe";
          case ENVOY_INTERNAL_ADDRESS -> "envoy_internal_address";
          default -> "unset";
        });
      }
      SocketAddress socket = address.getSocketAddress();
      out.add(socketAddress(i, j, field, socket.getAddress(), socket.getPortValue(), socket.getResolverName(),
          socket.getPortSpecifierCase() == SocketAddress.PortSpecifierCase.NAMED_PORT ? socket.getNamedPort() : null));
    }
    return out;
  }

  /**
   * A socket address at {@code field} (an {@code Address}) of {@code endpoints[i].lb_endpoints[j]}:
   * no {@code resolver_name}, a {@code port_value} in 1..65535, an IP literal, and no address
   * seen before in the assignment.
   */
  private InetSocketAddress socketAddress(int i, int j, String field, String ipText, int port, String resolverName,
      String namedPort) throws XdsResourceException {
    if (!resolverName.isEmpty()) {
      throw endpointNack(i, j, field + ".socket_address.resolver_name must be empty", Nack.quote(resolverName));
    }
    if (namedPort != null) {
      throw endpointNack(i, j, field + ".socket_address.port_value must be set", "named_port " + Nack.quote(namedPort));
    }
    if (port < 1 || port > 65535) {
      throw endpointNack(
          i, j, field + ".socket_address.port_value must be in [1, 65535]", Integer.toUnsignedString(port));
    }
    InetAddress ip = ips.parse(ipText);
    if (ip == null) {
      throw endpointNack(i, j, field + ".socket_address.address must be an IP literal", Nack.quote(ipText));
    }
    InetSocketAddress address = new InetSocketAddress(ip, port);
    if (!addresses.add(address, ips.lastHash())) {
      throw endpointNack(i, j, field + " must be unique in the assignment", addressText(address) + " again");
    }
    return address;
  }

  private XdsResourceException endpointNack(int i, int j, String fieldMustBe, Object got) {
    return Nack.of(KIND, name, "endpoints[" + i + "].lb_endpoints[" + j + "]." + fieldMustBe, got);
  }

  /**
   * gRFC A27: the priorities left after dropping weight-0 localities are 0..k-1, each with a
   * weight sum that fits in 32 bits. k priorities need k localities, so a highest priority at or
   * above the number of localities has a gap no higher than that number: only 0..min(highest, n)
   * is looked at.
   */
  private void checkPriorities() throws XdsResourceException {
    int last = (int) Math.min(highestPriority, weightedEntries);
    boolean[] present = new boolean[last + 1];
    long[] sums = new long[last + 1];
    for (Locality l : localities) {
      if (l.priority() <= last) {
        present[l.priority()] = true;
        sums[l.priority()] += l.weight();
      }
    }
    for (int p = 0; p <= last; p++) {
      if (!present[p]) {
        throw Nack.of(
            KIND,
            name,
            "endpoints[].priority must be contiguous from 0 (weight-0 localities do not count)",
            "priorities up to " + highestPriority + " without " + p);
      }
      if (sums[p] > MAX_UINT32) {
        throw Nack.of(
            KIND,
            name,
            "endpoints[].load_balancing_weight must sum to at most 4294967295 within priority " + p,
            sums[p]);
      }
    }
  }

  private List<DropOverload> dropOverloads() throws XdsResourceException {
    List<DropOverload> out = new ArrayList<>(drops.size());
    for (int k = 0; k < drops.size(); k++) {
      DropInput drop = drops.get(k);
      long perMillionFactor = perMillionFactor(drop.denominator);
      if (perMillionFactor < 0) {
        throw Nack.of(
            KIND,
            name,
            "policy.drop_overloads[" + k + "].drop_percentage.denominator must be HUNDRED, TEN_THOUSAND or MILLION",
            drop.denominator);
      }
      long ppm = drop.numerator * perMillionFactor;
      out.add(new DropOverload(drop.category, (int) Math.min(ppm, DropOverload.MILLION)));
    }
    return out;
  }

  private int overprovisioningFactor() throws XdsResourceException {
    if (overprovisioningFactor == UNSET) {
      return EndpointsUpdate.DEFAULT_OVERPROVISIONING_FACTOR;
    }
    if (overprovisioningFactor > Integer.MAX_VALUE) {
      throw Nack.of(KIND, name, "policy.overprovisioning_factor must be at most 2147483647", overprovisioningFactor);
    }
    return (int) overprovisioningFactor;
  }

  /**
   * gRFC A76: an endpoint's key on a hash ring is {@code metadata.filter_metadata["envoy.lb"]}'s
   * {@code hash_key} when that is a string; anything else (absent, another kind) means "use the
   * address", not an error.
   */
  private static String hashKey(Metadata metadata) {
    Struct lb = metadata.getFilterMetadataMap().get(ENVOY_LB_METADATA);
    if (lb == null) {
      return "";
    }
    Value key = lb.getFieldsMap().get(HASH_KEY_FIELD);
    return key != null && key.getKindCase() == Value.KindCase.STRING_VALUE ? key.getStringValue() : "";
  }

  /** What one unit of a FractionalPercent with this denominator is in parts per million; -1 if unknown. */
  private static long perMillionFactor(int denominator) {
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

  private static HealthStatus health(int envoyValue) {
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

  private static String addressText(InetSocketAddress address) {
    String ip = address.getAddress().getHostAddress();
    return ip.indexOf(':') >= 0 ? "[" + ip + "]:" + address.getPort() : ip + ":" + address.getPort();
  }

  /**
   * What an {@code LbEndpoint} holds where gRFC A27 wants a socket address, with the NACK for
   * each; only {@link #SOCKET_ADDRESS} passes.
   */
  enum AddressKind {
    SOCKET_ADDRESS("", ""),
    /** {@code host_identifier} unset. */
    NO_ENDPOINT("endpoint must be set", "unset"),
    /** {@code host_identifier} is {@code endpoint_name}. */
    ENDPOINT_NAME("endpoint must be set", "endpoint_name"),
    /** {@code endpoint.address} has no address set. */
    NO_ADDRESS("endpoint.address.socket_address must be set", "unset"),
    PIPE("endpoint.address.socket_address must be set", "pipe"),
    ENVOY_INTERNAL_ADDRESS("endpoint.address.socket_address must be set", "envoy_internal_address");

    final String mustBeSet;
    final String got;

    AddressKind(String mustBeSet, String got) {
      this.mustBeSet = mustBeSet;
      this.got = got;
    }
  }

  /**
   * One {@code lb_endpoints[j]} as a reader found it, waiting for its locality to end. Mutable
   * and reused from locality to locality, so that staging allocates nothing; {@link #clear} sets
   * what an empty {@code LbEndpoint} would give.
   */
  static final class StagedEndpoint {
    AddressKind kind;
    /** {@code endpoint.address.socket_address.address}. */
    String ip;
    /** {@code socket_address.port_value}, a uint32 as read. */
    int port;
    String resolverName;
    /** {@code socket_address.named_port}; null when the port is a {@code port_value}. */
    String namedPort;
    /** {@code load_balancing_weight}, unsigned; {@link #UNSET} when absent. */
    long weight;
    /** {@code health_status} as an envoy enum number. */
    int health;
    /** {@code endpoint.hostname}. */
    String hostname;
    /** {@code metadata}; null when absent. */
    Metadata metadata;
    /** {@code endpoint.additional_addresses}, as parsed; null when there are none. */
    List<AdditionalAddress> additional;

    private void clear() {
      kind = AddressKind.NO_ENDPOINT;
      ip = "";
      port = 0;
      resolverName = "";
      namedPort = null;
      weight = UNSET;
      health = 0;
      hostname = "";
      metadata = null;
      additional = null;
    }
  }

  /** The key of the "once per priority" rule. */
  private record PriorityLocality(long priority, LocalityId id) {}

  /** A {@code policy.drop_overloads} entry, checked in {@link #build} after the priorities. */
  private record DropInput(String category, long numerator, int denominator) {}
}
