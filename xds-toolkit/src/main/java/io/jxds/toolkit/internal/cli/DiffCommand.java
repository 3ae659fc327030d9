package io.jxds.toolkit.internal.cli;

import io.jxds.toolkit.PlanDiff;
import io.jxds.toolkit.Snapshot;
import io.jxds.toolkit.TrafficPlan;
import io.jxds.toolkit.internal.Concurrently;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ./jxds diff BEFORE AFTER}: what a push changes for traffic. */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    description = {
      "Shows what a push changes for traffic.",
      "Compares the traffic plans of two snapshots: shares that move (by how much), serving-priority",
      "changes, clusters left without usable endpoints, and resources a client would NACK after the push.",
      "Each side is one file, as ./jxds check reads them."})
final class DiffCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "BEFORE", description = "the snapshot before the push")
  Path before;

  @Parameters(index = "1", paramLabel = "AFTER", description = "the snapshot after the push")
  Path after;

  @Option(names = "--json", description = "print the documented JSON (schema jxds.diff/v1) instead of a table")
  boolean json;

  @Override
  public Integer call() throws Exception {
    // The two sides are independent: each is read and planned on a core of its own.
    Concurrently.Both<TrafficPlan, TrafficPlan> plans =
        Concurrently.both(() -> Snapshot.read(before).plan(), () -> Snapshot.read(after).plan());
    PlanDiff diff = PlanDiff.between(plans.first(), plans.second());
    int code = diff.after().check().anyNacked() ? Main.NACKED : 0;
    spec.commandLine().getOut().print(json ? DiffOutput.json(diff, code) + "\n" : DiffOutput.tables(diff));
    return code;
  }
}
