package io.jxds.examples;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Which backend address belongs to which locality and priority: how the demo turns "this RPC was
 * answered by 127.0.0.1:40123" into "zone-b, priority 0". Immutable.
 *
 * @param localities in display order (priority, then name)
 */
record Topology(List<LocalityInfo> localities) {
  /** An empty topology: every answered RPC counts under "other". */
  static final Topology EMPTY = new Topology(List.of());

  Topology {
    localities = List.copyOf(localities);
  }

  /**
   * One locality as the control plane describes it.
   *
   * @param label short name shown in the table, e.g. {@code zone-a}
   * @param priority 0 is the highest
   * @param endpoints the locality's backends, in order
   */
  record LocalityInfo(String label, int priority, List<EndpointInfo> endpoints) {
    LocalityInfo {
      endpoints = List.copyOf(endpoints);
    }
  }

  /**
   * One backend.
   *
   * @param label short name shown in the table, e.g. {@code a1}
   * @param address {@code host:port} exactly as {@link TrafficStats} records it
   */
  record EndpointInfo(String label, String address) {}

  /** The locality labelled {@code label}. */
  LocalityInfo locality(String label) {
    return localities.stream().filter(l -> l.label().equals(label)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no locality " + label));
  }

  /** The endpoint labelled {@code label}. */
  EndpointInfo endpoint(String label) {
    return localities.stream().flatMap(l -> l.endpoints().stream()).filter(e -> e.label().equals(label))
        .findFirst().orElseThrow(() -> new IllegalArgumentException("no endpoint " + label));
  }

  /** The locality an address belongs to, if it is known. */
  Optional<LocalityInfo> localityOf(String address) {
    return Optional.ofNullable(byAddress().get(address));
  }

  private Map<String, LocalityInfo> byAddress() {
    return localities.stream().flatMap(l -> l.endpoints().stream().map(e -> Map.entry(e.address(), l)))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a));
  }

  /** Address to endpoint label, for diagnostics. */
  Map<String, String> labels() {
    return localities.stream().flatMap(l -> l.endpoints().stream())
        .collect(Collectors.toMap(EndpointInfo::address, EndpointInfo::label, (a, b) -> a));
  }

  /** Label to endpoint, for lookups by label. */
  Map<String, EndpointInfo> endpointsByLabel() {
    return localities.stream().flatMap(l -> l.endpoints().stream())
        .collect(Collectors.toMap(EndpointInfo::label, Function.identity(), (a, b) -> a));
  }
}
