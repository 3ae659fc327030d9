package io.jxds.balancer.internal.metrics;

import io.jxds.api.model.LocalityId;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongGauge;
import io.opentelemetry.api.metrics.Meter;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The balancer's metrics through the OpenTelemetry API (meter {@code io.jxds}). gRFC A78 defines
 * none of these, so they carry jxds names; every one has {@code grpc.target} (the channel's
 * target) and {@code jxds.cluster}:
 *
 * <ul>
 *   <li>{@code jxds.lb.rpcs_dropped} (counter, {@code {call}}), with {@code jxds.drop_category}:
 *       RPCs dropped by the cluster's {@code drop_overloads}.
 *   <li>{@code jxds.lb.rpcs_refused} (counter): RPCs refused by the circuit breaker ({@code
 *       max_requests}).
 *   <li>{@code jxds.lb.rpcs_in_flight} (gauge): streams open to the cluster, from every channel of
 *       the process (the circuit breaker's count).
 *   <li>{@code jxds.lb.priority_failovers} / {@code jxds.lb.priority_failbacks} (counters): the
 *       serving priority moved to a lower / higher priority.
 *   <li>{@code jxds.lb.serving_priority} (gauge): the priority serving now, -1 when none.
 *   <li>{@code jxds.lb.locality_picks} (counter), with {@code grpc.lb.locality} (gRFC A78's
 *       locality label, {@code region/zone/sub_zone}): RPCs picked into each locality.
 *   <li>{@code jxds.lb.outlier_detection.ejections} / {@code jxds.lb.outlier_detection.unejections}
 *       (counters, {@code {endpoint}}): endpoints outlier detection (gRFC A50) ejected / let back
 *       in. grpc-java records no outlier-detection metric; the names follow gRFC A78's style.
 * </ul>
 *
 * <p>Locality picks are counted on every pick, so they go to a {@code LongAdder} per label set
 * that an asynchronous counter reads at collection time: a pick costs one uncontended add, not an
 * SDK recording (attribute lookup, exemplar sampling). The adders live as long as the
 * OpenTelemetry instance: one per (channel target, cluster, locality) ever used.
 *
 * <p>Loaded only when a channel records into an OpenTelemetry instance.
 */
final class OtelBalancerMetrics {
  static final AttributeKey<String> TARGET_KEY = AttributeKey.stringKey("grpc.target");
  static final AttributeKey<String> CLUSTER_KEY = AttributeKey.stringKey("jxds.cluster");
  static final AttributeKey<String> CATEGORY_KEY = AttributeKey.stringKey("jxds.drop_category");
  static final AttributeKey<String> LOCALITY_KEY = AttributeKey.stringKey("grpc.lb.locality");

  private final LongCounter drops;
  private final LongCounter refusals;
  private final LongCounter failovers;
  private final LongCounter failbacks;
  private final LongCounter ejections;
  private final LongCounter unejections;
  /** Picks per label set; never removed, see the class comment. */
  private final Map<Attributes, LongAdder> localityPicks = new ConcurrentHashMap<>();
  private final LongGauge servingPriority;
  /** The in-flight counts to report, per registration (one per cluster of a channel). */
  private final Map<Object, InFlight> inFlight = new ConcurrentHashMap<>();

  private record InFlight(Attributes attributes, LongSupplier open) {}

  OtelBalancerMetrics(Object openTelemetry) {
    Meter meter = ((OpenTelemetry) openTelemetry).getMeter("io.jxds");
    drops = meter.counterBuilder("jxds.lb.rpcs_dropped").setUnit("{call}")
        .setDescription("RPCs dropped by the cluster's drop_overloads, by category").build();
    refusals = meter.counterBuilder("jxds.lb.rpcs_refused").setUnit("{call}")
        .setDescription("RPCs refused by the cluster's circuit breaker (max_requests)").build();
    failovers = meter.counterBuilder("jxds.lb.priority_failovers").setUnit("{event}")
        .setDescription("Times the serving priority moved to a lower priority").build();
    failbacks = meter.counterBuilder("jxds.lb.priority_failbacks").setUnit("{event}")
        .setDescription("Times the serving priority moved back to a higher priority").build();
    ejections = meter.counterBuilder("jxds.lb.outlier_detection.ejections").setUnit("{endpoint}")
        .setDescription("Endpoints ejected by outlier detection").build();
    unejections = meter.counterBuilder("jxds.lb.outlier_detection.unejections").setUnit("{endpoint}")
        .setDescription("Endpoints let back in after an outlier ejection").build();
    meter.counterBuilder("jxds.lb.locality_picks").setUnit("{call}")
        .setDescription("RPCs picked into each locality")
        .buildWithCallback(m -> localityPicks.forEach((a, n) -> m.record(n.sum(), a)));
    servingPriority = meter.gaugeBuilder("jxds.lb.serving_priority").ofLongs().setUnit("{priority}")
        .setDescription("The priority serving the cluster now; -1 when none").build();
    meter.gaugeBuilder("jxds.lb.rpcs_in_flight").ofLongs().setUnit("{call}")
        .setDescription("Streams open to the cluster from every channel of the process")
        .buildWithCallback(m -> {
          // Two channels with one target report one count: the process-wide one.
          Map<Attributes, Long> out = new HashMap<>();
          for (InFlight f : inFlight.values()) {
            out.put(f.attributes(), f.open().getAsLong());
          }
          out.forEach((a, v) -> m.record(v, a));
        });
  }

  ClusterMetrics cluster(String target, String cluster) {
    Attributes base = Attributes.of(TARGET_KEY, target, CLUSTER_KEY, cluster);
    return new ClusterMetrics() {
      private final Object registration = new Object();

      @Override
      public MetricCounter drops(String category) {
        Attributes a = base.toBuilder().put(CATEGORY_KEY, category).build();
        return () -> drops.add(1, a);
      }

      @Override
      public MetricCounter circuitBreakerRefusals() {
        return () -> refusals.add(1, base);
      }

      @Override
      public MetricCounter localityPicks(LocalityId locality) {
        Attributes a = base.toBuilder()
            .put(LOCALITY_KEY, locality.region() + "/" + locality.zone() + "/" + locality.subZone())
            .build();
        LongAdder picks = localityPicks.computeIfAbsent(a, k -> new LongAdder());
        return picks::increment;
      }

      @Override
      public void servingPriority(int priority, int previous) {
        servingPriority.set(priority, base);
        if (previous >= 0 && priority > previous) {
          failovers.add(1, base);
        } else if (previous >= 0 && priority >= 0 && priority < previous) {
          failbacks.add(1, base);
        }
      }

      @Override
      public void outlierEjection() {
        ejections.add(1, base);
      }

      @Override
      public void outlierReturn() {
        unejections.add(1, base);
      }

      @Override
      public void inFlight(LongSupplier open) {
        inFlight.put(registration, new InFlight(base, open));
      }

      @Override
      public void close() {
        inFlight.remove(registration);
      }
    };
  }
}
