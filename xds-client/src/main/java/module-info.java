/**
 * The jxds xDS client: {@link io.jxds.client.XdsClientBuilder}, {@link io.jxds.client.XdsClientPool}
 * and the bootstrap. One ADS stream per control plane; see ARCHITECTURE.md, "The xDS client".
 */
@SuppressWarnings({"requires-transitive-automatic", "requires-automatic", "module"})
module io.jxds.client {
  requires transitive io.jxds.api;
  requires com.google.protobuf.util;
  requires io.grpc.stub;
  requires org.slf4j;
  // Optional: metrics are recorded only when the OpenTelemetry API is present (README, "Operating jxds").
  requires static io.opentelemetry.api;

  exports io.jxds.client;
  exports io.jxds.client.bootstrap;
  exports io.jxds.client.csds;
  // Seams jxds's balancer shares (ARCHITECTURE.md, "Where the code lives"): not API.
  exports io.jxds.client.internal to io.jxds.balancer;
  exports io.jxds.client.internal.lrs to io.jxds.balancer;
  exports io.jxds.client.internal.metrics to io.jxds.balancer;
  exports io.jxds.client.internal.tls to io.jxds.balancer;
}
