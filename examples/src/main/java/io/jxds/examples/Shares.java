package io.jxds.examples;

import io.jxds.examples.Topology.EndpointInfo;
import io.jxds.examples.Topology.LocalityInfo;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link TrafficStats.Window} read through a {@link Topology}: shares of the answered RPCs per
 * locality and per endpoint, in percent. Drops and failures are excluded from the shares (they
 * are shown as their own percentages of all RPCs), so "locality weights 1:1:2" reads 25/25/50
 * whether or not the load balancer drops some RPCs.
 */
record Shares(Topology topology, TrafficStats.Window window) {
  /** Percent of answered RPCs that the locality's endpoints answered. */
  double locality(String label) {
    return TrafficStats.Window.percent(sum(label, window.answered()), window.answeredTotal());
  }

  /** Percent of the answered RPCs that carried the header ({@link TrafficGenerator}) that the locality took. */
  double taggedLocality(String label) {
    return TrafficStats.Window.percent(sum(label, window.tagged()), window.taggedTotal());
  }

  /** Percent of the answered RPCs without the header that the locality took. */
  double untaggedLocality(String label) {
    return TrafficStats.Window.percent(sum(label, window.answered()) - sum(label, window.tagged()),
        window.answeredTotal() - window.taggedTotal());
  }

  private long sum(String label, Map<String, Long> byAddress) {
    return topology.locality(label).endpoints().stream().mapToLong(e -> byAddress.getOrDefault(e.address(), 0L))
        .sum();
  }

  /** Percent of answered RPCs that one endpoint answered. */
  double endpoint(String label) {
    EndpointInfo endpoint = topology.endpoint(label);
    return TrafficStats.Window.percent(window.answered().getOrDefault(endpoint.address(), 0L), window.answeredTotal());
  }

  /** How many RPCs one endpoint answered. */
  long answered(String label) {
    return window.answered().getOrDefault(topology.endpoint(label).address(), 0L);
  }

  /** RPC counts by backend, labelled: {@code {c1=12, a2=3}} (an address the topology does not know as is). */
  String labelled(Map<String, Long> byAddress) {
    Map<String, String> labels = topology.labels();
    Map<String, Long> out = new TreeMap<>();
    byAddress.forEach((address, n) -> out.put(labels.getOrDefault(address, address), n));
    return out.toString();
  }

  /** Each user's backends: {@code user-0 on c1, user-1 on a2, ...}. */
  String describeUsers() {
    StringBuilder s = new StringBuilder();
    Map<String, String> labels = topology.labels();
    new TreeMap<>(window.users()).forEach((user, byAddress) -> s.append(s.length() == 0 ? "" : ", ").append(user)
        .append(" on ").append(String.join("+", byAddress.keySet().stream().map(a -> labels.getOrDefault(a, a))
            .sorted().toList())));
    return s.length() == 0 ? "no user answered" : s.toString();
  }

  /** Percent of answered RPCs at a priority. */
  double priority(int priority) {
    long n = topology.localities().stream().filter(l -> l.priority() == priority)
        .flatMap(l -> l.endpoints().stream())
        .mapToLong(e -> window.answered().getOrDefault(e.address(), 0L)).sum();
    return TrafficStats.Window.percent(n, window.answeredTotal());
  }

  /** The share of the RPCs with the header and of those without it that {@code label} took. */
  String describeTagged(String label) {
    return String.format("%s took %.0f%% of %d RPCs with the header, %.0f%% of those without", label,
        taggedLocality(label), window.taggedTotal(), untaggedLocality(label));
  }

  /** A one-line summary: locality shares, failures and drops. */
  String describe() {
    StringBuilder s = new StringBuilder();
    int lastPriority = -1;
    for (LocalityInfo l : topology.localities()) {
      s.append(l.priority() != lastPriority ? (lastPriority < 0 ? "" : " | ") + "p" + l.priority() + " " : " ");
      lastPriority = l.priority();
      s.append(l.label()).append(' ').append(Math.round(locality(l.label()))).append('%');
    }
    return s.append(String.format(" | fail %.1f%%, drop %.1f%% of %d RPCs",
        window.failedPercent(), window.droppedPercent(), window.total())).toString();
  }
}
