package io.jxds.balancer.internal.resolver;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.jxds.balancer.internal.manager.ChosenCluster;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * Runs one routed call: puts its cluster in the call options every pick of the call reads ({@link
 * ChosenCluster}), with the request hash its route's hash policies produced (gRFC A42; it replaces
 * the application's {@code XdsClusterPolicy.REQUEST_HASH}: a route's policy is the operator's), as
 * one option (each option copies the call options),
 * and drops the call's reference on the cluster once, when the response headers arrive (gRFC A31:
 * the call is committed, no pick follows) or when the call closes without them.
 */
final class ClusterCallInterceptor implements ClientInterceptor {
  /** One per class, not an atomic object per call: a call allocates nothing to be released once. */
  private static final AtomicIntegerFieldUpdater<ClusterCallInterceptor> RELEASED =
      AtomicIntegerFieldUpdater.newUpdater(ClusterCallInterceptor.class, "released");

  private final ClusterRefs.ClusterRef ref;
  private final ChosenCluster chosen;
  /** 1 once the call's reference is dropped. */
  private volatile int released;

  /**
   * @param ref the call's reference, already taken
   * @param chosen the call's cluster (the reference's), with the hash of the route's hash policies
   *     when they produced one
   */
  ClusterCallInterceptor(ClusterRefs.ClusterRef ref, ChosenCluster chosen) {
    this.ref = ref;
    this.chosen = chosen;
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    ClientCall<Q, R> call;
    try {
      call = next.newCall(method, options.withOption(ChosenCluster.KEY, chosen));
    } catch (RuntimeException e) {
      release();
      throw e;
    }
    return new ForwardingClientCall.SimpleForwardingClientCall<>(call) {
      @Override
      public void start(Listener<R> listener, Metadata headers) {
        try {
          super.start(new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
            @Override
            public void onHeaders(Metadata responseHeaders) {
              release();
              super.onHeaders(responseHeaders);
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
              release();
              super.onClose(status, trailers);
            }
          }, headers);
        } catch (RuntimeException e) {
          release();
          throw e;
        }
      }
    };
  }

  private void release() {
    if (RELEASED.compareAndSet(this, 0, 1)) {
      ref.releaseFromCall();
    }
  }

  @Override
  public String toString() {
    return "ClusterCallInterceptor{" + chosen + "}";
  }
}
