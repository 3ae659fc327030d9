package io.jxds.testing;

import com.google.protobuf.Message;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.function.Function;

/**
 * A {@link FakeAdsServer}'s ADS service, both protocols: it opens a stream per call, hands each
 * request to its stream's protocol ({@link SotwStream}, {@link DeltaStream}), records it ({@link
 * RequestLog}) and queues the response it calls for ({@link ResponseSender}); and it pushes every
 * change of what is served ({@link ServedResources}) to the streams subscribed to it. Each of these
 * steps holds the server's {@link Monitor}, so responses leave in the order they were decided.
 * Nothing is thrown into gRPC's threads: a failure is recorded in {@link UnexpectedErrors}.
 */
final class AdsService extends AggregatedDiscoveryServiceGrpc.AggregatedDiscoveryServiceImplBase {
  private final Monitor monitor;
  private final ServedResources served;
  private final OpenStreams streams;
  private final RequestLog log;
  private final ResponseSender sender;
  private final UnexpectedErrors errors;

  AdsService(Monitor monitor, ServedResources served, OpenStreams streams, RequestLog log, ResponseSender sender,
      UnexpectedErrors errors) {
    this.monitor = monitor;
    this.served = served;
    this.streams = streams;
    this.log = log;
    this.sender = sender;
    this.errors = errors;
  }

  @Override
  public StreamObserver<DiscoveryRequest> streamAggregatedResources(StreamObserver<DiscoveryResponse> out) {
    return serve(out, false);
  }

  @Override
  public StreamObserver<DeltaDiscoveryRequest> deltaAggregatedResources(StreamObserver<DeltaDiscoveryResponse> out) {
    return serve(out, true);
  }

  /**
   * Changes what is served (one type: the change returns it, its version bumped) and pushes that
   * type to every stream subscribed to it.
   */
  void publish(Function<ServedResources, ServedType> change) {
    monitor.run(() -> {
      ServedType type = change.apply(served);
      for (AdsStream<?> stream : streams.all()) {
        Message response = stream.pushFor(type);
        if (response != null) {
          sender.enqueue(stream, response);
        }
      }
      monitor.changed();
    });
  }

  private <Q extends Message> StreamObserver<Q> serve(StreamObserver<?> responseObserver, boolean delta) {
    ServerCallStreamObserver<?> out = (ServerCallStreamObserver<?>) responseObserver;
    AdsStream<?> stream = monitor.get(() -> streams.open(out, delta, sender.isRunning()));
    // Setting a cancel handler also stops onNext from throwing after the client went away.
    out.setOnCancelHandler(() -> close(stream));
    return new StreamObserver<>() {
      @Override
      public void onNext(Q request) {
        try {
          onRequest(stream, request);
        } catch (RuntimeException | Error e) {
          errors.record(e);
        }
      }

      @Override
      public void onError(Throwable t) {
        close(stream); // the client cancelled: normal
      }

      @Override
      public void onCompleted() {
        monitor.run(() -> {
          if (streams.close(stream)) {
            sender.submit(stream, stream::complete);
          }
        });
      }
    };
  }

  private void onRequest(AdsStream<?> stream, Message request) {
    monitor.run(() -> {
      if (!stream.open) {
        return; // broken by breakStreams or stop; the client has not noticed yet
      }
      AdsStream.Handled handled = stream.handle(request, served);
      log.record(handled.recorded(), request);
      if (handled.response() != null) {
        sender.enqueue(stream, handled.response());
      }
    });
  }

  private void close(AdsStream<?> stream) {
    monitor.run(() -> streams.close(stream));
  }
}
