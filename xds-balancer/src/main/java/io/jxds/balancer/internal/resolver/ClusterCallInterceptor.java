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
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one routed call: puts its cluster in the call options every pick of the call reads ({@link
 * ChosenCluster}), and drops the call's reference on the cluster once, when the response headers
 * arrive (gRFC A31: the call is committed, no pick follows) or when the call closes without them.
 */
final class ClusterCallInterceptor implements ClientInterceptor {
  private final ClusterRefs.ClusterRef ref;
  private final AtomicBoolean released = new AtomicBoolean();

  /** @param ref the call's reference, already taken */
  ClusterCallInterceptor(ClusterRefs.ClusterRef ref) {
    this.ref = ref;
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    ClientCall<Q, R> call;
    try {
      call = next.newCall(method, options.withOption(ChosenCluster.KEY, ref.cluster()));
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
    if (released.compareAndSet(false, true)) {
      ref.releaseFromCall();
    }
  }

  @Override
  public String toString() {
    return "ClusterCallInterceptor{" + ref.cluster() + "}";
  }
}
