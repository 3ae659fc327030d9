package io.jxds.toolkit.internal.cli;

import io.jxds.toolkit.BadInputException;
import java.io.PrintWriter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
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

  /** The subcommands, by name, in the order help lists them. */
  static final Map<String, Supplier<Object>> SUBCOMMANDS = orderedMap(
      "check", CheckCommand::new, "diff", DiffCommand::new, "route", RouteCommand::new);

  private Main() {}

  private static Map<String, Supplier<Object>> orderedMap(String name1, Supplier<Object> command1, String name2,
      Supplier<Object> command2, String name3, Supplier<Object> command3) {
    Map<String, Supplier<Object>> map = new LinkedHashMap<>();
    map.put(name1, command1);
    map.put(name2, command2);
    map.put(name3, command3);
    return Collections.unmodifiableMap(map);
  }

  public static void main(String[] args) {
    System.exit(run(args, new PrintWriter(new Utf8Out(System.out), true), new PrintWriter(System.err, true)));
  }

  /** Runs one command line, writing to {@code out} and {@code err}; returns the exit code. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    Preload.start();
    CommandLine cli = new CommandLine(new JxdsCommand());
    // picocli builds its model of a command by reflection over the annotations, tens of milliseconds
    // of a cold run each: a run builds only the command it runs; help and mistakes get them all.
    Supplier<Object> named = args.length == 0 ? null : SUBCOMMANDS.get(args[0]);
    if (named != null) {
      cli.addSubcommand(named.get());
    } else {
      SUBCOMMANDS.values().forEach(command -> cli.addSubcommand(command.get()));
    }
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
