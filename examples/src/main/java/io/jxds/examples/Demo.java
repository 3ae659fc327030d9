package io.jxds.examples;

import java.io.PrintStream;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The jxds demo: {@code ./demo} from the repository root. See {@link DemoOptions#USAGE}.
 *
 * <p>Exit codes: 0 when every step of the script showed its expected effect (or the external
 * table ran its course), 1 when a step did not (or the external cluster does not exist, or no RPC
 * reached a backend), 2 on bad flags.
 */
public final class Demo {
  // grpc-java logs through java.util.logging: keep its transient connection warnings (expected
  // here, when backends are stopped on purpose) off the table. Held so the setting is not lost.
  private static final Logger GRPC_JUL = Logger.getLogger("io.grpc");

  private Demo() {}

  public static void main(String[] args) throws Exception {
    GRPC_JUL.setLevel(Level.SEVERE);
    PrintStream out = System.out;
    DemoOptions options;
    try {
      options = DemoOptions.parse(args);
    } catch (IllegalArgumentException e) {
      boolean help = e.getMessage().isEmpty(); // --help
      if (!help) {
        System.err.println("demo: " + e.getMessage());
      }
      (help ? System.out : System.err).println(DemoOptions.USAGE);
      System.exit(help ? 0 : 2);
      return;
    }
    boolean passed = options.xdsServer().isPresent()
        ? new ExternalDemo(options, out).run()
        : new EmbeddedDemo(options, out).run().passed();
    out.flush();
    if (!passed) {
      System.exit(1);
    }
    // Passed: main returns and the JVM exits by itself, because every thread left is a daemon.
  }
}
