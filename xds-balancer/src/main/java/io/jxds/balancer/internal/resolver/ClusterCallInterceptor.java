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
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.balancer.internal.manager.ChosenCluster;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.jspecify.annotations.Nullable;

/**
 * Runs one routed call: puts its cluster in the call options every pick of the call reads ({@link
 * ChosenCluster}), with the request hash its route's hash policies produced (gRFC A42; as
 * {@link XdsClusterPolicy#REQUEST_HASH}, which it replaces: a route's policy is the operator's),
 * and drops the call's reference on the cluster once, when the response headers arrive (gRFC A31:
 * the call is committed, no pick follows) or when the call closes without them.
 */
final class ClusterCallInterceptor implements ClientInterceptor {
  /** One per class, not an atomic object per call: a call allocates nothing to be released once. */
  private static final AtomicIntegerFieldUpdater<ClusterCallInterceptor> RELEASED =
      AtomicIntegerFieldUpdater.newUpdater(ClusterCallInterceptor.class, "released");

  private final ClusterRefs.ClusterRef ref;
  private final @Nullable Long requestHash;
  /** 1 once the call's reference is dropped. */
  private volatile int released;

  /** @param ref the call's reference, already taken */
  ClusterCallInterceptor(ClusterRefs.ClusterRef ref) {
    this(ref, null);
  }

  /**
   * @param ref the call's reference, already taken
   * @param requestHash the hash of the route's hash policies, or null when they produced none
   */
  ClusterCallInterceptor(ClusterRefs.ClusterRef ref, @Nullable Long requestHash) {
    this.ref = ref;
    this.requestHash = requestHash;
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    ClientCall<Q, R> call;
    try {
      CallOptions routed = options.withOption(ChosenCluster.KEY, ref.cluster());
      if (requestHash != null) {
        routed = routed.withOption(XdsClusterPolicy.REQUEST_HASH, requestHash);
      }
      call = next.newCall(method, routed);
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
    return "ClusterCallInterceptor{" + ref.cluster() + "}";
  }
}
