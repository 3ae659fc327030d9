package io.jxds.testing;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that gives each test a fresh, started {@link FakeAdsServer} and stops it
 * afterwards. Register it on a field:
 *
 * <pre>{@code
 * @RegisterExtension
 * final FakeAdsServerExtension ads = FakeAdsServerExtension.inProcess();
 *
 * @Test
 * void something() {
 *   ads.server().setClusters(...);
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
  private volatile FakeAdsServer server;

  private FakeAdsServerExtension(boolean inProcess) {
    this.inProcess = inProcess;
  }

  /**
   * Each test gets an in-process server under a fresh name.
   *
   * @return the extension, to register on a field
   */
  public static FakeAdsServerExtension inProcess() {
    return new FakeAdsServerExtension(true);
  }

  /**
   * Each test gets a server on a fresh 127.0.0.1 port.
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
