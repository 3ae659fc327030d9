package io.jxds.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A raw ADS client over the envoy api jar's stub: one stream, every response queued, requests
 * written exactly as the test says. No jxds code, so the fake is never proven with itself.
 */
final class AdsTestClient implements AutoCloseable {
  static final Duration TIMEOUT = Duration.ofSeconds(5);
  static final Node NODE = Node.newBuilder().setId("raw-test-client").build();

  private final ManagedChannel channel;
  private final LinkedBlockingQueue<DiscoveryResponse> responses = new LinkedBlockingQueue<>();
  private final CompletableFuture<Status> closed = new CompletableFuture<>();
  private final StreamObserver<DiscoveryRequest> requests;

  AdsTestClient(FakeAdsServer server) {
    channel = server.newClientChannel();
    requests =
        AggregatedDiscoveryServiceGrpc.newStub(channel)
            .streamAggregatedResources(
                new StreamObserver<>() {
                  @Override
                  public void onNext(DiscoveryResponse response) {
                    responses.add(response);
                  }

                  @Override
                  public void onError(Throwable t) {
                    closed.complete(Status.fromThrowable(t));
                  }

                  @Override
                  public void onCompleted() {
                    closed.complete(Status.OK);
                  }
                });
  }

  /** Sends a request without error detail. */
  synchronized void request(String typeUrl, String version, String nonce, String... names) {
    requests.onNext(
        DiscoveryRequest.newBuilder()
            .setNode(NODE)
            .setTypeUrl(typeUrl)
            .setVersionInfo(version)
            .setResponseNonce(nonce)
            .addAllResourceNames(List.of(names))
            .build());
  }

  /** ACKs {@code response}, keeping the given subscription. */
  void ack(DiscoveryResponse response, String... names) {
    request(response.getTypeUrl(), response.getVersionInfo(), response.getNonce(), names);
  }

  /** NACKs {@code response} as grpc-java does: last good version, INVALID_ARGUMENT, message. */
  synchronized void nack(
      DiscoveryResponse response, String lastGoodVersion, String message, String... names) {
    requests.onNext(
        DiscoveryRequest.newBuilder()
            .setNode(NODE)
            .setTypeUrl(response.getTypeUrl())
            .setVersionInfo(lastGoodVersion)
            .setResponseNonce(response.getNonce())
            .addAllResourceNames(List.of(names))
            .setErrorDetail(
                com.google.rpc.Status.newBuilder().setCode(3).setMessage(message).build())
            .build());
  }

  /** The next response, failing the test if none arrives in time. */
  DiscoveryResponse awaitResponse() throws InterruptedException {
    DiscoveryResponse response = responses.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(response).as("a response within %s", TIMEOUT).isNotNull();
    return response;
  }

  /** Asserts that no response arrives within {@code quiet}. */
  void assertNoResponse(Duration quiet) throws InterruptedException {
    DiscoveryResponse response = responses.poll(quiet.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(response).as("no response expected").isNull();
  }

  /** The status the stream closed with, failing the test if it stays open. */
  Status awaitClosed() throws InterruptedException, ExecutionException, TimeoutException {
    return closed.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    channel.shutdownNow();
    channel.awaitTermination(5, TimeUnit.SECONDS);
  }

  /** The names of the resources a response carries, in order. */
  static List<String> names(DiscoveryResponse response) {
    return response.getResourcesList().stream()
        .map(
            any -> {
              try {
                return switch (any.getTypeUrl()) {
                  case FakeAdsServer.CLUSTER_TYPE_URL -> any.unpack(
                          io.envoyproxy.envoy.config.cluster.v3.Cluster.class)
                      .getName();
                  case FakeAdsServer.ENDPOINTS_TYPE_URL -> any.unpack(
                          io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment.class)
                      .getClusterName();
                  case FakeAdsServer.LISTENER_TYPE_URL -> any.unpack(
                          io.envoyproxy.envoy.config.listener.v3.Listener.class)
                      .getName();
                  case FakeAdsServer.ROUTE_TYPE_URL -> any.unpack(
                          io.envoyproxy.envoy.config.route.v3.RouteConfiguration.class)
                      .getName();
                  default -> any.getTypeUrl();
                };
              } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                throw new AssertionError(e);
              }
            })
        .toList();
  }
}
