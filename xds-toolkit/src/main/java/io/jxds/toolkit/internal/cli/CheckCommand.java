package io.jxds.toolkit.internal.cli;

import io.jxds.toolkit.Snapshot;
import io.jxds.toolkit.TrafficPlan;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ./jxds check FILE...}: the verdict on every resource and the plan of every cluster. */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {
      "Checks xDS resources and prints every cluster's traffic plan.",
      "Each resource is checked as jxds's client would (accepted, or the exact NACK text; fields gRPC ignores);",
      "each cluster's plan has the serving priority, each locality's and endpoint's share, drops, the circuit",
      "breaker and TLS.",
      "FILEs hold envoy proto3 JSON: resources with \"@type\", DiscoveryResponses, an Envoy /config_dump,",
      "a CSDS ClientStatusResponse or ClientConfig, or arrays of these. Later files win for a name.",
      "With --xds-server HOST:PORT --node ID (--listener NAME | --cluster NAME) the resources are fetched",
      "live, through jxds's own xDS client as that node: a listener, its routes, their clusters and endpoints."})
final class CheckCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(arity = "0..*", paramLabel = "FILE", description = "JSON files to read, in order")
  List<Path> files = List.of();

  @Mixin LiveSource live;

  @Option(names = "--json", description = "print the documented JSON (schema jxds.check/v1) instead of tables")
  boolean json;

  @Override
  public Integer call() throws Exception {
    live.validate(spec, !files.isEmpty());
    TrafficPlan plan = (live.isLive() ? live.fetch(spec) : Snapshot.read(files.toArray(Path[]::new))).plan();
    int code = plan.check().anyNacked() ? Main.NACKED : 0;
    if (json) {
      CheckOutput.json(plan, code, spec.commandLine().getOut());
      spec.commandLine().getOut().print("\n");
    } else {
      spec.commandLine().getOut().print(CheckOutput.tables(plan));
    }
    return code;
  }
}
