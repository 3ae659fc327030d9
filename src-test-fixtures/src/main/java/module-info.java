/**
 * Test fixtures for code that uses jxds, and for control-plane authors: a fake ADS server, resource
 * builders, a fake clock and a fake load-balancer helper.
 */
@SuppressWarnings({"requires-transitive-automatic", "requires-automatic"})
module io.jxds.testing {
  requires transitive api;
  requires transitive com.google.protobuf;
  requires transitive io.grpc;
  requires io.grpc.inprocess;
  requires io.grpc.netty.shaded;
  requires io.grpc.stub;
  requires org.slf4j;
  // Only FakeAdsServerExtension needs JUnit; users of the rest need not have it.
  requires static org.junit.jupiter.api;
  // Only TestPki needs BouncyCastle, an optional dependency of the fixtures.
  requires static org.bouncycastle.pkix;
  requires static org.bouncycastle.provider;
  // Only InMemoryMetrics needs the OpenTelemetry SDK, an optional dependency of the fixtures.
  requires static io.opentelemetry.api;
  requires static io.opentelemetry.context;
  requires static io.opentelemetry.sdk.common;
  requires static io.opentelemetry.sdk.metrics;

  exports io.jxds.testing;
}
