package io.jxds.toolkit.internal.cli;

import io.jxds.api.ResourceTypes;
import io.jxds.toolkit.internal.read.MessageTypes;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * Builds the Cluster and ClusterLoadAssignment proto descriptors on a thread of its own while the
 * command line is parsed and the files are read and parsed: their generated classes build the
 * descriptors of a few hundred envoy {@code .proto} files, a third of a large file's reading, and
 * none of it needs the file. Reading then finds them built (or waits for them). Once per JVM.
 */
final class Preload {
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private Preload() {}

  /** Starts the thread; null when it was started before. */
  static @Nullable Thread start() {
    if (!STARTED.compareAndSet(false, true)) {
      return null;
    }
    Thread thread = new Thread(Preload::load, "jxds-preload");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private static void load() {
    MessageTypes.find(ResourceTypes.CLUSTER_TYPE_URL);
    MessageTypes.find(ResourceTypes.ENDPOINTS_TYPE_URL);
  }
}
