package io.jxds.toolkit.internal.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The top command: its subcommands ({@link Main#SUBCOMMANDS}) do the work. */
@Command(
    name = "jxds",
    mixinStandardHelpOptions = true,
    version = "jxds control-plane toolkit 0.1.0",
    description = "What a gRPC client (jxds) does with your control plane's xDS resources, without running one.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:every resource is accepted",
      "1:a client would NACK a resource",
      "2:bad input (unreadable file, not xDS JSON, unknown type) or bad arguments; live: no such listener or"
          + " cluster, or no answer in time",
      "3:jxds itself failed",
      "4:route: the request's calls fail (no virtual host, no route, a route that does not forward)"})
final class JxdsCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "name a command: check, diff or route");
  }
}
