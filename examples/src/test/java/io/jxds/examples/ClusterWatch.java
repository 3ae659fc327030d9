package io.jxds.examples;

// docs/xds-client.md:begin
import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.InsecureChannelCredentials;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.client.XdsClientPool;
import io.jxds.client.bootstrap.BootstrapException;
import java.util.concurrent.Executor;

final class ClusterWatch implements AutoCloseable {
  private final XdsClientPool.Lease lease;
  private final WatchHandle handle;

  /** Watches a cluster on the client shared per bootstrap (the one xds-cluster:/// channels use). */
  ClusterWatch(String cluster, ResourceWatcher<ClusterUpdate> watcher, Executor executor)
      throws BootstrapException {
    lease = XdsClientPool.shared().acquire(); // reads the bootstrap, as a channel does
    handle = lease.watchCluster(cluster, watcher, executor);
  }

  /** Ends the watch, then releases the shared client (closing a lease leaves its watches). */
  @Override
  public void close() {
    handle.cancel();
    lease.close();
  }

  /** Or a client of your own, which you close. */
  static DefaultXdsClient clientOf(String controlPlane) {
    return XdsClientBuilder.forTarget(controlPlane, InsecureChannelCredentials.create())
        .node(Node.newBuilder().setId("my-app").build())
        .build();
  }
}
// docs/xds-client.md:end
