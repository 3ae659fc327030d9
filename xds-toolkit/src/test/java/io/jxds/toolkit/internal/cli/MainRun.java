package io.jxds.toolkit.internal.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One run of {@code ./jxds} in this JVM ({@link Main#run}): its exit code and what it printed. */
record MainRun(int code, String out, String err) {
  static MainRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
    return new MainRun(code, out.toString(), err.toString());
  }
}
