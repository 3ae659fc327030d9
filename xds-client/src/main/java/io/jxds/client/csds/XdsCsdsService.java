package io.jxds.client.csds;

import io.envoyproxy.envoy.service.status.v3.ClientStatusDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.status.v3.ClientStatusRequest;
import io.envoyproxy.envoy.service.status.v3.ClientStatusResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;

/**
 * The Client Status Discovery Service (gRFC A40) for every jxds xDS client in the process: add it
 * to a gRPC server you already run, and {@code grpcdebug} or any CSDS client can read what this
 * process holds.
 *
 * <pre>{@code
 * Server server = Grpc.newServerBuilderForPort(8081, InsecureServerCredentials.create())
 *     .addService(new XdsCsdsService())
 *     .build().start();
 * }</pre>
 *
 * <p>Each live client (built with {@code XdsClientBuilder} or shared by {@code XdsClientPool}, not
 * yet closed) is one {@code ClientConfig}: its {@code node}, its control plane's target as {@code
 * client_scope}, and per watched resource one {@code GenericXdsConfig} with the type URL, name,
 * version, {@code client_status}, last update time, the resource as received, and for a NACK the
 * {@code error_state} (rejected version, when, why) beside the last good value. {@code client_status}
 * is UNKNOWN while the name's request has reached no server (no ready stream: the control plane
 * cannot be reached, as grpc-java reports it), REQUESTED once it is on a ready stream, ACKED,
 * NACKED, DOES_NOT_EXIST when the control plane deleted it, and TIMEOUT when its does-not-exist
 * timer fired (no answer within the resource timeout).
 * Both methods answer from the clients' latest snapshots without waiting for them.
 *
 * <p>A request with {@code node_matchers} is refused with INVALID_ARGUMENT, as gRPC does: there is
 * nothing to match against but the clients' own nodes. {@code exclude_resource_contents} leaves
 * the resources' bytes out.
 */
public final class XdsCsdsService extends ClientStatusDiscoveryServiceGrpc.ClientStatusDiscoveryServiceImplBase {
  /** A service reporting every live jxds client of the process. */
  public XdsCsdsService() {}

  /**
   * The current state of every live jxds client, as the service would answer a plain request; for
   * applications that show it another way (a status page, a log line).
   *
   * @return one {@code ClientConfig} per live client, oldest first
   */
  public static ClientStatusResponse clientStatus() {
    return CsdsDump.of(ClientStatusRequest.getDefaultInstance());
  }

  /**
   * Answers one request.
   *
   * @param request the request; {@code node_matchers} must be empty
   * @param responseObserver receives one response, or INVALID_ARGUMENT
   */
  @Override
  public void fetchClientStatus(ClientStatusRequest request, StreamObserver<ClientStatusResponse> responseObserver) {
    Status refused = CsdsDump.check(request);
    if (refused != null) {
      responseObserver.onError(refused.asRuntimeException());
      return;
    }
    responseObserver.onNext(CsdsDump.of(request));
    responseObserver.onCompleted();
  }

  /**
   * Answers each request of the stream with the state at that moment.
   *
   * @param responseObserver receives one response per request; the stream ends with
   *     INVALID_ARGUMENT on a request this service refuses
   * @return where the caller's requests go
   */
  @Override
  public StreamObserver<ClientStatusRequest> streamClientStatus(
      StreamObserver<ClientStatusResponse> responseObserver) {
    return new StreamObserver<>() {
      private boolean done;

      @Override
      public void onNext(ClientStatusRequest request) {
        if (done) {
          return;
        }
        Status refused = CsdsDump.check(request);
        if (refused != null) {
          done = true;
          responseObserver.onError(refused.asRuntimeException());
          return;
        }
        responseObserver.onNext(CsdsDump.of(request));
      }

      @Override
      public void onError(Throwable t) {
        done = true; // the caller went away; nothing to answer
      }

      @Override
      public void onCompleted() {
        if (!done) {
          done = true;
          responseObserver.onCompleted();
        }
      }
    };
  }
}
