package io.jxds.testing;

import com.google.protobuf.Message;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.stub.ServerCallStreamObserver;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A state-of-the-world ADS stream ({@code StreamAggregatedResources}). A request with a stale
 * nonce is recorded and otherwise ignored, names included. Guarded by the server's {@link Monitor}.
 */
final class SotwStream extends AdsStream<StreamSubscription> {
  private static final Logger logger = LoggerFactory.getLogger(SotwStream.class);

  SotwStream(long id, ServerCallStreamObserver<?> out) {
    super(id, out);
  }

  @Override
  Handled handle(Message message, ServedResources served) {
    DiscoveryRequest request = (DiscoveryRequest) message;
    ServedType type = served.get(request.getTypeUrl());
    RecordedRequest.Kind kind = RecordedRequest.Kind.UNKNOWN_TYPE;
    DiscoveryResponse response = null;
    if (type != null) {
      StreamSubscription state = subscription(request.getTypeUrl());
      kind = state.classify(request);
      response = kind == RecordedRequest.Kind.STALE ? null : state.apply(type, request, kind);
    }
    return new Handled(RecordedRequest.of(id, request, kind), response);
  }

  @Override
  Message noteSent(Message message, @Nullable String nonce) {
    DiscoveryResponse response = (DiscoveryResponse) message;
    if (nonce != null) {
      response = response.toBuilder().setNonce(nonce).build();
    }
    if (!response.getNonce().isEmpty()) {
      subscription(response.getTypeUrl()).noteSent(response.getNonce());
    }
    if (logger.isDebugEnabled()) {
      logger.debug("ADS response on stream {}: type={} version={} nonce={} resources={}", id,
          response.getTypeUrl(), response.getVersionInfo(), response.getNonce(), response.getResourcesCount());
    }
    return response;
  }

  @Override
  boolean speaks(Message response) {
    return response instanceof DiscoveryResponse;
  }

  @Override
  StreamSubscription newSubscription() {
    return new StreamSubscription();
  }
}
