package io.jxds.testing;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that gives each test a fresh, started {@link FakeAdsServer} and stops it
 * afterwards, for tests of an xDS client the test builds itself. To route a jxds channel ({@code
 * xds-cluster:///}) through the server, register {@link XdsTestBed} instead: it adds the bootstrap,
 * backends and channels. Register it on a field:
 *
 * <pre>{@code
 * @RegisterExtension
 * final FakeAdsServerExtension ads = FakeAdsServerExtension.loopback();
 *
 * @Test
 * void something() {
 *   ads.server().setClusters(...);
 *   // a client on ads.server().serverUri(), or on the bootstrap ads.server().bootstrap().build()
 * }
 * }</pre>
 *
 * <p>After each test it fails the test if the server recorded an unexpected internal failure
 * ({@link FakeAdsServer#unexpectedErrors()}), so a broken fixture never passes silently.
 */
// JUnit's types appear in this class only; the module reads JUnit statically (module-info.java).
@SuppressWarnings("exports")
public final class FakeAdsServerExtension implements BeforeEachCallback, AfterEachCallback {
  private final boolean inProcess;
  private volatile @Nullable FakeAdsServer server; // null outside a test

  private FakeAdsServerExtension(boolean inProcess) {
    this.inProcess = inProcess;
  }

  /**
   * Each test gets an in-process server under a fresh name, which only a client built on its
   * {@link FakeAdsServer#newClientChannel()} reaches (e.g. {@code
   * XdsClientBuilder.forChannel(ads.server().newClientChannel())}). Its bootstrap cannot serve a
   * jxds channel or grpc-java's xDS: they dial the bootstrap's {@code server_uri} with {@code
   * Grpc.newChannelBuilder}, and grpc-java has no resolver for {@code inprocess:} targets ("Invalid
   * DNS name: inprocess:fake-ads-..."); use {@link #loopback()} or {@link XdsTestBed} for them.
   *
   * @return the extension, to register on a field
   */
  public static FakeAdsServerExtension inProcess() {
    return new FakeAdsServerExtension(true);
  }

  /**
   * Each test gets a server on a fresh 127.0.0.1 port, which any client reaches, through its
   * {@link FakeAdsServer#serverUri()} or its bootstrap.
   *
   * @return the extension, to register on a field
   */
  public static FakeAdsServerExtension loopback() {
    return new FakeAdsServerExtension(false);
  }

  /**
   * The current test's server.
   *
   * @return the started server of the test now running
   * @throws IllegalStateException outside a test
   */
  public FakeAdsServer server() {
    FakeAdsServer current = server;
    if (current == null) {
      throw new IllegalStateException("no FakeAdsServer outside a test");
    }
    return current;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    server = (inProcess ? FakeAdsServer.inProcess() : FakeAdsServer.loopback()).start();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    FakeAdsServer current = server;
    server = null;
    if (current != null) {
      current.stop();
      UnexpectedErrors.assertNone(current.unexpectedErrors());
    }
  }
}
