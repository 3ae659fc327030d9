package io.jxds.toolkit.internal.cli;

import io.jxds.toolkit.BadInputException;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * {@code ./jxds}: the control-plane toolkit's command line (docs/toolkit.md). Exit codes: 0 all
 * is accepted, 1 a client would NACK something, 2 bad input or bad arguments (a message naming the
 * file and line, never a stack trace), 3 jxds itself failed, 4 ({@code route}) the request's calls
 * fail.
 */
public final class Main {
  static final int NACKED = 1;
  static final int BAD_INPUT = 2;
  static final int FAILED = 3;
  static final int NOT_ROUTED = 4;

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs one command line, writing to {@code out} and {@code err}; returns the exit code. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    Preload.start();
    CommandLine cli = new CommandLine(new JxdsCommand());
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      if (e instanceof BadInputException) {
        commandLine.getErr().println("jxds: " + e.getMessage());
        return BAD_INPUT;
      }
      commandLine.getErr().println("jxds: failed (a bug in jxds; please report it): " + e);
      return FAILED;
    });
    int code = cli.execute(args);
    out.flush();
    err.flush();
    return code;
  }
}
