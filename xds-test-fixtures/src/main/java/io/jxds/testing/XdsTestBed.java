package io.jxds.testing;

import io.grpc.Channel;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension for testing what resources make a jxds channel do: per test, a {@link
 * FakeAdsServer} on a loopback port, the bootstrap that points jxds at it, backends that count what
 * they serve, channels on {@code xds-cluster:///CLUSTER}, and a wait for traffic shares.
 *
 * <pre>{@code
 * @RegisterExtension final XdsTestBed bed = new XdsTestBed();
 *
 * @Test
 * void paymentsSplits75To25() {
 *   List<TestBackend> b = bed.backends().start(2);
 *   bed.ads().setClusters(XdsResources.cluster("payments").build());
 *   bed.ads().setEndpoints(XdsResources.endpoints("payments")
 *       .locality("r", "a", "", l -> l.weight(3).endpoint(b.get(0).ip(), b.get(0).port(), HEALTHY))
 *       .locality("r", "b", "", l -> l.weight(1).endpoint(b.get(1).ip(), b.get(1).port(), HEALTHY))
 *       .build());
 *
 *   bed.awaitShares(bed.newChannel("payments"), Map.of(b.get(0), 0.75, b.get(1), 0.25), 0.05);
 * }
 * }</pre>
 *
 * <p>Before each test it starts the server and sets the system property {@value
 * #BOOTSTRAP_PROPERTY} to its bootstrap, with {@code "jxds": {"client_retention": "0s"}}, so the
 * pooled client closes with the test's last channel and none outlives its test. After each test it
 * shuts down the channels it made, restores the property, stops the backends and the server, and
 * fails the test if the server saw an unexpected error. The channels find jxds's {@code
 * xds-cluster} resolver at run time: a test needs {@code io.jxds:xds-balancer} on its class path.
 * The property is global: tests that use a bed must not run in parallel in one JVM.
 *
 * <p>{@code new XdsTestBed()} puts the server on 127.0.0.1; {@link #inProcess()} puts it in
 * process (no port), which jxds dials through {@code io.grpc:grpc-inprocess} (a test dependency
 * then). The backends are on 127.0.0.1 either way: a channel reaches the addresses its endpoints
 * name.
 */
// JUnit's types appear in this class only; the module reads JUnit statically (module-info.java).
@SuppressWarnings("exports")
public final class XdsTestBed implements BeforeEachCallback, AfterEachCallback {
  /** The system property jxds reads its bootstrap JSON from; the bed sets it for each test. */
  public static final String BOOTSTRAP_PROPERTY = "jxds.bootstrapConfig";

  private final FakeAdsServer ads;
  private final TestBackends backends = new TestBackends();
  private final List<ManagedChannel> channels = new ArrayList<>();
  private @Nullable String propertyBefore; // the property's value before the test, null for unset

  /** A bed for each test of the class that registers it, its control plane on 127.0.0.1. */
  public XdsTestBed() {
    this(FakeAdsServer.loopback());
  }

  private XdsTestBed(FakeAdsServer ads) {
    this.ads = ads;
  }

  /**
   * A bed whose control plane is in process: its bootstrap's {@code server_uri} is {@code
   * inprocess:NAME}, which jxds dials with {@code io.grpc:grpc-inprocess} (add it as a test
   * dependency).
   *
   * @return a bed for each test of the class that registers it
   */
  public static XdsTestBed inProcess() {
    return new XdsTestBed(FakeAdsServer.inProcess());
  }

  /**
   * The control plane, started for the test.
   *
   * @return the server, the same for the bed's life (stopped between tests)
   */
  public FakeAdsServer ads() {
    return ads;
  }

  /**
   * The test's backends; they are stopped after it.
   *
   * @return where to start, stop and find backends
   */
  public TestBackends backends() {
    return backends;
  }

  /**
   * A plaintext channel on {@code xds-cluster:///CLUSTER}; shut down after the test.
   *
   * @param cluster the cluster's name
   * @return the channel
   */
  public ManagedChannel newChannel(String cluster) {
    return newChannel(cluster, InsecureChannelCredentials.create());
  }

  /**
   * A channel on {@code xds-cluster:///CLUSTER} with {@code credentials} (e.g. jxds's {@code
   * XdsClusterCredentials} for clusters whose endpoints serve TLS); shut down after the test.
   *
   * @param cluster the cluster's name, any (Istio's {@code outbound|8080||HOST} too: what a target
   *     cannot hold is percent-encoded)
   * @param credentials the channel's credentials
   * @return the channel
   */
  public ManagedChannel newChannel(String cluster, ChannelCredentials credentials) {
    return track(Grpc.newChannelBuilder(target(cluster), credentials).build());
  }

  /**
   * Shuts {@code channel} down after the test.
   *
   * @param channel a channel the test made
   * @return {@code channel}
   */
  public ManagedChannel track(ManagedChannel channel) {
    synchronized (channels) {
      channels.add(Objects.requireNonNull(channel, "channel"));
    }
    return channel;
  }

  /**
   * Replaces the bootstrap for the rest of the test, e.g. {@code
   * bed.ads().bootstrap().jxdsOption("client_retention", "0s").serverFeatures(...).build()}. Clients
   * read it when a channel first needs one.
   *
   * @param json the bootstrap JSON
   */
  public void useBootstrap(String json) {
    System.setProperty(BOOTSTRAP_PROPERTY, json);
  }

  /**
   * Sends windows of RPCs on {@code channel} until, in one window, each backend of {@code shares}
   * answered its share within {@code tolerance}; waits at most {@link Poll#DEFAULT_TIMEOUT}. A
   * window has {@code 1 / tolerance²} RPCs (at least 100, at most 10,000): 400 for 0.05.
   *
   * @param channel the channel, e.g. from {@link #newChannel(String)}
   * @param shares each backend's expected fraction of the RPCs, in [0, 1]
   * @param tolerance how far a fraction may be from the expected one, in (0, 1)
   * @return the RPC counts of that window, by backend name ({@link BackendCalls#FAILED} for
   *     failures)
   * @throws AssertionError naming the last window, if no window matched in time
   */
  public Map<String, Integer> awaitShares(Channel channel, Map<TestBackend, Double> shares, double tolerance) {
    if (!(tolerance > 0 && tolerance < 1)) {
      throw new IllegalArgumentException("tolerance must be in (0, 1), got " + tolerance);
    }
    int window = (int) Math.min(10_000, Math.max(100, Math.ceil(1 / (tolerance * tolerance))));
    return BackendCalls.awaitCalls(channel, window, Poll.DEFAULT_TIMEOUT, split -> shares.entrySet().stream()
        .allMatch(e -> Math.abs(BackendCalls.share(split, e.getKey().name()) - e.getValue()) <= tolerance));
  }

  /** {@code xds-cluster:///CLUSTER}; the cluster's name as the resolver reads it back (percent-decoded). */
  private static String target(String cluster) {
    try {
      // The five-argument constructor escapes what a path cannot hold as is ('|', '?', '#', '%',
      // spaces), and toASCIIString() what is not ASCII.
      return new URI("xds-cluster", "", "/" + Objects.requireNonNull(cluster, "cluster"), null, null).toASCIIString();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("cluster name " + cluster + " makes no target", e);
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    ads.start();
    propertyBefore = System.getProperty(BOOTSTRAP_PROPERTY);
    useBootstrap(ads.bootstrap().jxdsOption("client_retention", "0s").build());
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    List<ManagedChannel> made;
    synchronized (channels) {
      made = List.copyOf(channels);
      channels.clear();
    }
    for (ManagedChannel channel : made) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (propertyBefore == null) {
      System.clearProperty(BOOTSTRAP_PROPERTY);
    } else {
      System.setProperty(BOOTSTRAP_PROPERTY, propertyBefore);
    }
    backends.close();
    ads.stop();
    UnexpectedErrors.assertNone(ads.unexpectedErrors());
  }
}
