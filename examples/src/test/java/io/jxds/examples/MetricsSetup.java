package io.jxds.examples;

// docs/operating.md:begin
import io.grpc.ChannelCredentials;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.client.XdsClientPool;
import io.jxds.client.bootstrap.BootstrapLoader;
import io.opentelemetry.api.OpenTelemetry;

final class MetricsSetup {
  /** Pooled clients, one per bootstrap, and the balancers they serve, record into otel. */
  static XdsClientPool pool(OpenTelemetry otel) {
    return new XdsClientPool(BootstrapLoader.fromSystem(), otel);
  }

  /** A client of your own records into otel. */
  static DefaultXdsClient client(String controlPlane, ChannelCredentials creds, OpenTelemetry otel) {
    return XdsClientBuilder.forTarget(controlPlane, creds).openTelemetry(otel).build();
  }
}
// docs/operating.md:end
