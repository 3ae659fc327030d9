package io.jxds.toolkit.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.WireFormat;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.jxds.api.ResourceTypes;
import io.jxds.toolkit.IgnoredField;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The one list of fields that gRPC clients (jxds among them) ignore although a control plane may
 * set them, each with why. Sources: gRFC A27 (what a gRPC client reads of CDS and EDS: no active
 * health checks, no overprovisioning, the client feature {@code envoy.lb.does_not_support_overprovisioning}),
 * A32 (of circuit breakers, only {@code max_requests} at priority DEFAULT), A42 and A48 (ring hash
 * and least request settings), A50 (of outlier detection, the success-rate and failure-percentage fields), and
 * ARCHITECTURE.md, "Upstream TLS" (the {@code sni} jxds cannot send). A field whose value jxds
 * rejects is a NACK, not listed here; {@code IgnoredFieldsTest} checks that every path exists.
 *
 * <p>A path names fields from the resource down, {@code []} after a repeated one:
 * {@code endpoints[].lb_endpoints[].endpoint.health_check_config}. A field counts as set when it
 * is present (message, oneof, optional) or differs from its default (other scalars), a repeated
 * one when it is not empty.
 */
public final class IgnoredFields {
  /** A field gRPC ignores, and why. */
  record Rule(String path, String reason) {}

  private static final String NO_HEALTH_CHECKS =
      "gRPC clients run no active health checks: an endpoint's health is its EDS health_status (gRFC A27)";
  private static final String TRANSPORT = "gRPC's transport settings come from the channel, not the cluster";
  private static final String DNS = "DNS settings apply to DNS clusters; jxds serves EDS clusters";
  private static final String OUTLIER =
      "gRPC counts calls by gRPC status, not HTTP or local-origin errors: only the success-rate and"
          + " failure-percentage algorithms run (gRFC A50, \"Rationale\")";
  private static final String CIRCUIT_BREAKER =
      "of circuit_breakers, gRPC reads only max_requests at priority DEFAULT (gRFC A32)";

  static final Map<String, List<Rule>> RULES = Map.of(
      ResourceTypes.CLUSTER_TYPE_URL, List.of(
          new Rule("health_checks", NO_HEALTH_CHECKS),
          new Rule("lb_subset_config", "load-balancer subsets are Envoy's; gRPC picks among all usable endpoints"),
          new Rule("common_lb_config",
              "healthy panic threshold, zone-aware and locality-weighted settings: gRPC always weights localities by"
                  + " load_balancing_weight and has no panic mode (gRFC A27, A52)"),
          new Rule("outlier_detection.consecutive_5xx", OUTLIER),
          new Rule("outlier_detection.consecutive_gateway_failure", OUTLIER),
          new Rule("outlier_detection.consecutive_local_origin_failure", OUTLIER),
          new Rule("outlier_detection.enforcing_local_origin_success_rate", OUTLIER),
          new Rule("connect_timeout", TRANSPORT),
          new Rule("per_connection_buffer_limit_bytes", TRANSPORT),
          new Rule("upstream_connection_options", TRANSPORT),
          new Rule("typed_extension_protocol_options", TRANSPORT),
          new Rule("upstream_bind_config", TRANSPORT),
          new Rule("preconnect_policy", TRANSPORT),
          new Rule("dns_lookup_family", DNS),
          new Rule("dns_refresh_rate", DNS),
          new Rule("respect_dns_ttl", DNS),
          new Rule("typed_dns_resolver_config", DNS),
          new Rule("cleanup_interval", "host cleanup is Envoy's; a gRPC client follows EDS"),
          new Rule("close_connections_on_host_health_failure", NO_HEALTH_CHECKS),
          new Rule("ignore_health_on_host_removal", NO_HEALTH_CHECKS),
          new Rule("filters", "upstream network filters are Envoy's"),
          new Rule("load_assignment", "an EDS cluster's endpoints come from its ClusterLoadAssignment resource,"
              + " not from an inline load_assignment"),
          new Rule("circuit_breakers.thresholds[].max_connections", CIRCUIT_BREAKER),
          new Rule("circuit_breakers.thresholds[].max_pending_requests", CIRCUIT_BREAKER),
          new Rule("circuit_breakers.thresholds[].max_retries", CIRCUIT_BREAKER),
          new Rule("circuit_breakers.thresholds[].retry_budget", CIRCUIT_BREAKER),
          new Rule("circuit_breakers.per_host_thresholds", CIRCUIT_BREAKER),
          new Rule("round_robin_lb_config.slow_start_config", "gRPC has no slow start"),
          new Rule("least_request_lb_config.slow_start_config", "gRPC has no slow start (gRFC A48)")),
      ResourceTypes.ENDPOINTS_TYPE_URL, List.of(
          new Rule("policy.overprovisioning_factor",
              "gRPC clients do not scale priorities by it: they advertise envoy.lb.does_not_support_overprovisioning"
                  + " and fail over only when a priority has no READY endpoint (gRFC A27, A56)"),
          new Rule("policy.endpoint_stale_after", "gRPC keeps endpoints until the control plane changes them"),
          new Rule("policy.weighted_priority_health", "gRPC does not weigh priority health"),
          new Rule("endpoints[].lb_endpoints[].endpoint.health_check_config", NO_HEALTH_CHECKS),
          new Rule("endpoints[].proximity", "gRPC does not read locality proximity"),
          new Rule("named_endpoints", "gRPC reads endpoints from endpoints[].lb_endpoints only")));

  private IgnoredFields() {}

  /** Each rule's path, resolved to field descriptors once per type. */
  private static final Map<String, List<Resolved>> RESOLVED = Map.of(
      ResourceTypes.CLUSTER_TYPE_URL, resolve(ResourceTypes.CLUSTER_TYPE_URL),
      ResourceTypes.ENDPOINTS_TYPE_URL, resolve(ResourceTypes.ENDPOINTS_TYPE_URL));

  /** A rule with its path as field descriptors. */
  private record Resolved(Rule rule, FieldDescriptor[] fields) {}

  /** The fields {@code resource} sets that gRPC ignores. */
  public static List<IgnoredField> of(String typeUrl, Message resource) {
    List<IgnoredField> found = new ArrayList<>();
    for (Resolved r : RESOLVED.getOrDefault(typeUrl, List.of())) {
      Match m = new Match(r.fields().length);
      walk(resource, r.fields(), 0, m);
      if (m.count > 0) {
        found.add(new IgnoredField(m.path(r.fields()), m.count, r.rule().reason()));
      }
    }
    return found;
  }

  /**
   * {@link #of}'s answer read straight off the resource's wire bytes, without building the message
   * (a ClusterLoadAssignment of many endpoints costs a parse otherwise); null when the bytes hold a
   * shape this reader leaves to {@link #of}: a singular message on a rule's path given more than
   * once (merged by a parser), or a scalar without presence in other than varint form.
   */
  public static List<IgnoredField> ofBytes(String typeUrl, ByteString bytes) {
    List<IgnoredField> found = new ArrayList<>();
    try {
      for (Resolved r : RESOLVED.getOrDefault(typeUrl, List.of())) {
        Match m = new Match(r.fields().length);
        scan(bytes.newCodedInput(), r.fields(), 0, m);
        if (m.count > 0) {
          found.add(new IgnoredField(m.path(r.fields()), m.count, r.rule().reason()));
        }
      }
    } catch (NotCanonical | IOException e) {
      return null;
    }
    return found;
  }

  /** A shape {@link #ofBytes} leaves to the parse and walk. */
  private static final class NotCanonical extends Exception {
    private static final long serialVersionUID = 1L;

    NotCanonical() {
      super(null, null, false, false);
    }
  }

  /**
   * {@link #walk} on the wire: the occurrences of {@code fields[i]} in one message's bytes, which
   * {@code in} reads up to its limit. A child message is scanned in place (a limit pushed on the one
   * stream: no stream or copy per message, and an endpoint is one); a singular one given twice, or
   * beside another member of its oneof, makes the whole answer {@link NotCanonical}, so what its
   * scan found is never used.
   */
  private static void scan(CodedInputStream in, FieldDescriptor[] fields, int i, Match match)
      throws IOException, NotCanonical {
    FieldDescriptor f = fields[i];
    boolean last = i == fields.length - 1;
    int occurrences = 0;
    long lastVarint = 0;
    boolean otherOfOneof = false;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      int number = WireFormat.getTagFieldNumber(tag);
      if (number != f.getNumber()) {
        if (f.getContainingOneof() != null) {
          FieldDescriptor g = f.getContainingType().findFieldByNumber(number);
          otherOfOneof |= g != null && g.getContainingOneof() == f.getContainingOneof();
        }
        in.skipField(tag);
        continue;
      }
      int wireType = WireFormat.getTagWireType(tag);
      if (last) {
        if (!f.isRepeated() && !f.hasPresence()) {
          if (wireType != WireFormat.WIRETYPE_VARINT) {
            throw new NotCanonical();
          }
          lastVarint = in.readRawVarint64();
        } else {
          in.skipField(tag);
        }
        occurrences++;
        continue;
      }
      if (wireType != WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        throw new NotCanonical();
      }
      int outer = in.pushLimit(in.readRawVarint32());
      match.at[i] = occurrences;
      scan(in, fields, i + 1, match);
      in.popLimit(outer);
      occurrences++;
    }
    if (otherOfOneof && occurrences > 0) {
      throw new NotCanonical(); // two members of a oneof: the parser keeps the last one
    }
    if (!f.isRepeated() && occurrences > 1 && !last) {
      throw new NotCanonical(); // a parser merges them: leave it to the walk
    }
    if (last) {
      boolean set = f.isRepeated() || f.hasPresence() ? occurrences > 0 : lastVarint != 0;
      if (set) {
        match.add();
      }
    }
  }

  /** Every rule's message type, for the test that checks each path. */
  static Descriptor root(String typeUrl) {
    return typeUrl.equals(ResourceTypes.CLUSTER_TYPE_URL)
        ? Cluster.getDescriptor()
        : ClusterLoadAssignment.getDescriptor();
  }

  private static List<Resolved> resolve(String typeUrl) {
    List<Resolved> resolved = new ArrayList<>();
    for (Rule rule : RULES.get(typeUrl)) {
      String[] segments = rule.path().split("\\.");
      FieldDescriptor[] fields = new FieldDescriptor[segments.length];
      Descriptor d = root(typeUrl);
      for (int i = 0; i < segments.length; i++) {
        String name = segments[i].endsWith("[]") ? segments[i].substring(0, segments[i].length() - 2) : segments[i];
        fields[i] = d.findFieldByName(name);
        if (fields[i] == null) {
          throw new IllegalStateException("no field " + name + " in " + d.getFullName());
        }
        if (i < segments.length - 1) {
          d = fields[i].getMessageType();
        }
      }
      resolved.add(new Resolved(rule, fields));
    }
    return resolved;
  }

  /** Where a rule matched first (the repeated fields' indexes), and how often. */
  private static final class Match {
    final int[] at;
    int[] first;
    int count;

    Match(int depth) {
      at = new int[depth];
    }

    void add() {
      if (count++ == 0) {
        first = at.clone();
      }
    }

    /** The first match as text: {@code endpoints[0].lb_endpoints[2].endpoint.health_check_config}. */
    String path(FieldDescriptor[] fields) {
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < fields.length; i++) {
        s.append(i == 0 ? "" : ".").append(fields[i].getName());
        if (fields[i].isRepeated() && i < fields.length - 1) {
          s.append('[').append(first[i]).append(']');
        }
      }
      return s.toString();
    }
  }

  private static void walk(Message m, FieldDescriptor[] fields, int i, Match match) {
    FieldDescriptor f = fields[i];
    boolean last = i == fields.length - 1;
    if (f.isRepeated()) {
      int n = m.getRepeatedFieldCount(f);
      if (last) {
        if (n > 0) {
          match.add();
        }
        return;
      }
      for (int k = 0; k < n; k++) {
        match.at[i] = k;
        walk((Message) m.getRepeatedField(f, k), fields, i + 1, match);
      }
      return;
    }
    boolean set = f.hasPresence() ? m.hasField(f) : !m.getField(f).equals(f.getDefaultValue());
    if (!set) {
      return;
    }
    if (last) {
      match.add();
    } else {
      walk((Message) m.getField(f), fields, i + 1, match);
    }
  }
}
