package io.jxds.testing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An OpenTelemetry whose metrics a test reads back: the SDK's meter provider with a reader that
 * collects on demand (cumulative). Needs {@code io.opentelemetry:opentelemetry-sdk-metrics} on the
 * test class path.
 *
 * <pre>{@code
 * InMemoryMetrics metrics = new InMemoryMetrics();
 * XdsClientBuilder.forTarget(...).openTelemetry(metrics.openTelemetry()).build();
 * assertThat(metrics.value("grpc.xds_client.resource_updates_valid", Attributes.of(...))).isEqualTo(1);
 * }</pre>
 */
public final class InMemoryMetrics {
  private final Reader reader = new Reader();
  private final SdkMeterProvider meterProvider = SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final OpenTelemetry openTelemetry = new OpenTelemetry() {
    @Override
    public TracerProvider getTracerProvider() {
      return TracerProvider.noop();
    }

    @Override
    public MeterProvider getMeterProvider() {
      return meterProvider;
    }

    @Override
    public ContextPropagators getPropagators() {
      return ContextPropagators.noop();
    }
  };

  /**
   * The instance to hand to the code under test.
   *
   * @return an OpenTelemetry whose metrics this object reads
   */
  public OpenTelemetry openTelemetry() {
    return openTelemetry;
  }

  /**
   * Every long point of a metric now, by attributes (counters: the total so far; gauges: the last
   * value).
   *
   * @param name the metric's name
   * @return its points; empty when the metric has none
   */
  public Map<Attributes, Long> points(String name) {
    Map<Attributes, Long> out = new HashMap<>();
    for (MetricData m : reader.collect()) {
      if (!m.getName().equals(name)) {
        continue;
      }
      Collection<LongPointData> points = switch (m.getType()) {
        case LONG_SUM -> m.getLongSumData().getPoints();
        case LONG_GAUGE -> m.getLongGaugeData().getPoints();
        default -> List.of();
      };
      for (LongPointData p : points) {
        out.put(p.getAttributes(), p.getValue());
      }
    }
    return out;
  }

  /**
   * One point of a metric now.
   *
   * @param name the metric's name
   * @param attributes exactly the point's attributes
   * @return its value, 0 when there is no such point
   */
  public long value(String name, Attributes attributes) {
    return points(name).getOrDefault(attributes, 0L);
  }

  /** Collects on demand, cumulatively. */
  private static final class Reader implements MetricReader {
    private volatile CollectionRegistration registration = CollectionRegistration.noop();

    @Override
    public void register(CollectionRegistration r) {
      registration = r;
    }

    Collection<MetricData> collect() {
      return registration.collectAllMetrics();
    }

    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
      return AggregationTemporality.CUMULATIVE;
    }

    @Override
    public CompletableResultCode forceFlush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }
}
