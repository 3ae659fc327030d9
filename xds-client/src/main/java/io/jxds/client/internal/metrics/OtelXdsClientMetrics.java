package io.jxds.client.internal.metrics;

import io.jxds.api.ResourceStatus;
import io.jxds.api.XdsClientStatus;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.ObservableLongGauge;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * gRFC A78's xDS client metrics through the OpenTelemetry API. Loaded only when a client records
 * into an OpenTelemetry instance.
 *
 * <p>{@code grpc.target} is {@value #TARGET}: a jxds client is shared by every channel of the
 * process, so no one channel's target names it.
 */
final class OtelXdsClientMetrics implements XdsClientMetrics {
  static final String TARGET = "*";
  static final String SCOPE = "io.jxds";
  static final AttributeKey<String> TARGET_KEY = AttributeKey.stringKey("grpc.target");
  static final AttributeKey<String> SERVER_KEY = AttributeKey.stringKey("grpc.xds.server");
  static final AttributeKey<String> TYPE_KEY = AttributeKey.stringKey("grpc.xds.resource_type");
  static final AttributeKey<String> AUTHORITY_KEY = AttributeKey.stringKey("grpc.xds.authority");
  static final AttributeKey<String> CACHE_STATE_KEY = AttributeKey.stringKey("grpc.xds.cache_state");
  private static final String TYPE_URL_PREFIX = "type.googleapis.com/";

  /** Per server target, its attributes; read by the gauge's collection thread too. */
  private final Map<String, Attributes> serverAttributes = new ConcurrentHashMap<>();
  private final LongCounter serverFailures;
  private final LongCounter validUpdates;
  private final LongCounter invalidUpdates;
  private final List<ObservableLongGauge> gauges;
  /** Per server target and type URL, the attributes of its update counters; sync context only. */
  private final Map<String, Map<String, Attributes>> typeAttributes = new HashMap<>();

  OtelXdsClientMetrics(
      Object openTelemetry, Supplier<Map<String, Boolean>> connectedServers, Supplier<XdsClientStatus> status) {
    Meter meter = ((OpenTelemetry) openTelemetry).getMeter(SCOPE);
    this.serverFailures = meter.counterBuilder("grpc.xds_client.server_failure")
        .setUnit("{failure}")
        .setDescription("xDS servers going from working to failing")
        .build();
    this.validUpdates = meter.counterBuilder("grpc.xds_client.resource_updates_valid")
        .setUnit("{resource}")
        .setDescription("Resources received that were considered valid")
        .build();
    this.invalidUpdates = meter.counterBuilder("grpc.xds_client.resource_updates_invalid")
        .setUnit("{resource}")
        .setDescription("Resources received that were considered invalid")
        .build();
    ObservableLongGauge connected = meter.gaugeBuilder("grpc.xds_client.connected").ofLongs()
        .setUnit("{bool}")
        .setDescription("Whether the ADS stream to the xDS server works (1) or not (0)")
        .buildWithCallback(m -> connectedServers.get().forEach(
            (server, up) -> m.record(up ? 1 : 0, serverAttributes(server))));
    ObservableLongGauge resources = meter.gaugeBuilder("grpc.xds_client.resources").ofLongs()
        .setUnit("{resource}")
        .setDescription("xDS resources cached, by authority, type and cache state")
        .buildWithCallback(m -> countResources(status.get()).forEach((a, n) -> m.record(n, a)));
    this.gauges = List.of(connected, resources);
  }

  private Attributes serverAttributes(String server) {
    return serverAttributes.computeIfAbsent(server, s -> Attributes.of(TARGET_KEY, TARGET, SERVER_KEY, s));
  }

  @Override
  public void serverFailure(String failed) {
    // gRFC A78 labels the server that failed: with federation (gRFC A47) maybe an authority's.
    serverFailures.add(1, serverAttributes(failed));
  }

  @Override
  public void resourceUpdates(String server, String typeUrl, long valid, long invalid) {
    Attributes attributes = typeAttributes.computeIfAbsent(server, s -> new HashMap<>()).computeIfAbsent(
        typeUrl, t -> Attributes.of(TARGET_KEY, TARGET, SERVER_KEY, server, TYPE_KEY, resourceType(t)));
    if (valid > 0) {
      validUpdates.add(valid, attributes);
    }
    if (invalid > 0) {
      invalidUpdates.add(invalid, attributes);
    }
  }

  @Override
  public void close() {
    for (ObservableLongGauge g : gauges) {
      g.close();
    }
  }

  private static Map<Attributes, Long> countResources(XdsClientStatus status) {
    Map<Attributes, Long> out = new HashMap<>();
    for (ResourceStatus r : status.resources()) {
      Attributes a = Attributes.builder()
          .put(TARGET_KEY, TARGET)
          .put(AUTHORITY_KEY, authority(r.name()))
          .put(CACHE_STATE_KEY, cacheState(r))
          .put(TYPE_KEY, resourceType(r.typeUrl()))
          .build();
      out.merge(a, 1L, Long::sum);
    }
    return out;
  }

  /** gRFC A78's {@code grpc.xds.cache_state} values. */
  static String cacheState(ResourceStatus r) {
    return switch (r.state()) {
      case REQUESTED -> "requested";
      case UNKNOWN, TIMEOUT -> "unknown"; // as grpc-java: A78 has no value for either
      case DOES_NOT_EXIST -> "does_not_exist";
      case ACKED -> "acked";
      case NACKED -> r.version().isEmpty() ? "nacked" : "nacked_but_cached";
    };
  }

  /** gRFC A78: the authority of an {@code xdstp:} name, {@code #old} for any other name. */
  static String authority(String name) {
    if (!name.startsWith("xdstp://")) {
      return "#old";
    }
    int end = name.indexOf('/', "xdstp://".length());
    return end < 0 ? name.substring("xdstp://".length()) : name.substring("xdstp://".length(), end);
  }

  /** gRFC A78: the type's proto name, e.g. {@code envoy.config.cluster.v3.Cluster}. */
  static String resourceType(String typeUrl) {
    return typeUrl.startsWith(TYPE_URL_PREFIX) ? typeUrl.substring(TYPE_URL_PREFIX.length()) : typeUrl;
  }
}
