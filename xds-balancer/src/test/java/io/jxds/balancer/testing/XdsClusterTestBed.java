package io.jxds.balancer.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.testing.FakeAdsServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What every {@code xds_cluster} end-to-end test stands on, as a JUnit extension: a FakeAdsServer
 * on a loopback port, started before each test and named by the bootstrap in the system property
 * {@value #BOOTSTRAP_PROPERTY} (with {@code client_retention} 0 s, so a pooled client closes with
 * its last channel and none outlives its test); real backends on 127.0.0.1; channels the test
 * opens. After each test every channel, backend and the server are closed and the server must
 * have seen no unexpected error.
 */
public final class XdsClusterTestBed implements BeforeEachCallback, AfterEachCallback {
  public static final String BOOTSTRAP_PROPERTY = "jxds.bootstrapConfig";

  private final FakeAdsServer ads = FakeAdsServer.loopback();
  private final Backends backends = new Backends();
  private final List<ManagedChannel> channels = new ArrayList<>();

  public FakeAdsServer ads() {
    return ads;
  }

  public Backends backends() {
    return backends;
  }

  /** Replaces the bootstrap the pooled client reads (for settings beyond the default one). */
  public void useBootstrap(String json) {
    System.setProperty(BOOTSTRAP_PROPERTY, json);
  }

  /** A plaintext channel on {@code xds-cluster:///<cluster>}, closed after the test. */
  public ManagedChannel channel(String cluster) {
    return channel(cluster, InsecureChannelCredentials.create());
  }

  /** A channel on {@code xds-cluster:///<cluster>} with {@code credentials}, closed after the test. */
  public ManagedChannel channel(String cluster, ChannelCredentials credentials) {
    return track(Grpc.newChannelBuilder(XdsClusterPolicy.target(cluster), credentials).build());
  }

  /** Closes {@code channel} after the test. */
  public ManagedChannel track(ManagedChannel channel) {
    channels.add(channel);
    return channel;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    ads.start();
    useBootstrap(ads.bootstrap().jxdsOption("client_retention", "0s").build());
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    for (ManagedChannel c : channels) {
      c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    channels.clear();
    System.clearProperty(BOOTSTRAP_PROPERTY);
    backends.close();
    ads.stop();
    assertThat(ads.unexpectedErrors()).isEmpty();
  }
}
