package io.jxds.benchmarks;

import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Status;
import io.jxds.api.ResourceWatcher;

/**
 * Heap retained by the client's cache, per cached cluster and per cached endpoint: used heap after
 * full GCs, before and after a client caches N clusters (each subscribed, with one watcher) or one
 * assignment of N endpoints. The response and its bytes are dropped before the second reading, so
 * the figure is what the client keeps (model value, entry, status, subscription), not the wire data.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar io.jxds.benchmarks.HeapFootprint}
 */
public final class HeapFootprint {
  private HeapFootprint() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    // Warm-up run so that classes and static caches are not counted.
    perCluster(100);
    perEndpoint(100);
    System.out.printf("retained per cached cluster:  %.0f bytes (N=%d)%n", perCluster(n), n);
    System.out.printf("retained per cached endpoint: %.0f bytes (N=%d)%n", perEndpoint(n), n);
  }

  /** Bytes retained per cached cluster, over {@code n} clusters. */
  public static double perCluster(int n) throws Exception {
    byte[] bytes = ResponseData.clusters(n, "1", "a");
    long before = usedAfterGc();
    InMemoryAdsFeed feed = new InMemoryAdsFeed();
    ResourceWatcher<Object> watcher = ignoring();
    for (int i = 0; i < n; i++) {
      feed.client().watch(io.jxds.api.ResourceTypes.CLUSTER, ResponseData.clusterName(i), cast(watcher), Runnable::run);
    }
    feed.ready();
    feed.respond(DiscoveryResponse.parseFrom(bytes));
    long after = usedAfterGc();
    check(feed, n);
    feed.close();
    return (after - before) / (double) n;
  }

  /** Bytes retained per cached endpoint, over one assignment of {@code n} endpoints. */
  public static double perEndpoint(int n) throws Exception {
    byte[] bytes = ResponseData.endpoints("big", n, "1", 8080);
    long before = usedAfterGc();
    InMemoryAdsFeed feed = new InMemoryAdsFeed();
    feed.client().watch(io.jxds.api.ResourceTypes.ENDPOINTS, "big", cast(ignoring()), Runnable::run);
    feed.ready();
    feed.respond(DiscoveryResponse.parseFrom(bytes));
    long after = usedAfterGc();
    check(feed, 1);
    feed.close();
    return (after - before) / (double) n;
  }

  private static void check(InMemoryAdsFeed feed, int resources) {
    long acked =
        feed.client().status().resources().stream()
            .filter(r -> r.state() == io.jxds.api.ResourceState.ACKED)
            .count();
    if (acked != resources) {
      throw new IllegalStateException("expected " + resources + " cached resources, got " + acked);
    }
  }

  @SuppressWarnings("unchecked")
  static <T> ResourceWatcher<T> cast(ResourceWatcher<?> w) {
    return (ResourceWatcher<T>) w;
  }

  static ResourceWatcher<Object> ignoring() {
    return new ResourceWatcher<>() {
      @Override
      public void onUpdate(Object value) {}

      @Override
      public void onResourceDoesNotExist(String resourceName) {}

      @Override
      public void onError(Status error) {}
    };
  }

  private static long usedAfterGc() throws InterruptedException {
    Runtime rt = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(50);
      used = Math.min(used, rt.totalMemory() - rt.freeMemory());
    }
    return used;
  }
}
