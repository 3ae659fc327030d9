package io.jxds.testing;

import com.google.protobuf.Message;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.grpc.stub.ServerCallStreamObserver;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A delta ADS stream ({@code DeltaAggregatedResources}). Its requests are recorded as
 * state-of-the-world ones ({@link DeltaSubscription#asRecorded}), so the same assertions serve both
 * protocols; a stale nonce still (un)subscribes, since a delta request's names are changes, not a
 * snapshot. Guarded by the server's {@link Monitor}.
 */
final class DeltaStream extends AdsStream<DeltaSubscription> {
  private static final Logger logger = LoggerFactory.getLogger(DeltaStream.class);

  DeltaStream(long id, ServerCallStreamObserver<?> out) {
    super(id, out);
  }

  @Override
  Handled handle(Message message, ServedResources served) {
    DeltaDiscoveryRequest request = (DeltaDiscoveryRequest) message;
    ServedType type = served.get(request.getTypeUrl());
    if (type == null) {
      RecordedRequest.Kind kind = RecordedRequest.Kind.UNKNOWN_TYPE;
      return new Handled(RecordedRequest.of(id, new DeltaSubscription().asRecorded(request, kind, ""), kind), null);
    }
    DeltaSubscription state = subscription(request.getTypeUrl());
    RecordedRequest.Kind kind = state.classify(request);
    String acking = state.lastVersionSent;
    DeltaDiscoveryResponse response = state.apply(type, request, kind);
    return new Handled(RecordedRequest.of(id, state.asRecorded(request, kind, acking), kind), response);
  }

  @Override
  Message noteSent(Message message, @Nullable String nonce) {
    DeltaDiscoveryResponse response = (DeltaDiscoveryResponse) message;
    if (nonce != null) {
      response = response.toBuilder().setNonce(nonce).build();
    }
    if (!response.getNonce().isEmpty()) {
      DeltaSubscription state = subscription(response.getTypeUrl());
      state.noteSent(response.getNonce());
      state.lastVersionSent = response.getSystemVersionInfo();
    }
    if (logger.isDebugEnabled()) {
      logger.debug("delta ADS response on stream {}: type={} version={} nonce={} resources={} removed={}", id,
          response.getTypeUrl(), response.getSystemVersionInfo(), response.getNonce(), response.getResourcesCount(),
          response.getRemovedResourcesCount());
    }
    return response;
  }

  @Override
  boolean speaks(Message response) {
    return response instanceof DeltaDiscoveryResponse;
  }

  @Override
  DeltaSubscription newSubscription() {
    return new DeltaSubscription();
  }
}
