package io.jxds.toolkit.internal.cli;

import io.jxds.toolkit.BadInputException;
import io.jxds.toolkit.RequestRoute;
import io.jxds.toolkit.Snapshot;
import io.jxds.toolkit.TrafficPlan;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ./jxds route FILE... --authority A --path P [--header k=v]...}: where one request goes. */
@Command(
    name = "route",
    mixinStandardHelpOptions = true,
    description = {
      "Shows where a request goes on an xds:/// channel: the virtual host its authority selects, the route",
      "it matches and the clusters it is sent to with their shares, or why it fails (as the channel's",
      "UNAVAILABLE says). The listener is --listener, else the one named by the authority (as xds:///AUTHORITY),",
      "else the snapshot's only one. FILEs as ./jxds check reads them."})
final class RouteCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "JSON files to read, in order")
  List<Path> files;

  @Option(names = "--authority", required = true, paramLabel = "HOST[:PORT]",
      description = "the channel's authority: it selects the virtual host")
  String authority;

  @Option(names = "--path", required = true, paramLabel = "/SERVICE/METHOD",
      description = "the method's path, e.g. /pkg.Service/Method")
  String path;

  @Option(names = "--header", paramLabel = "NAME=VALUE",
      description = "a header of the call (repeatable; a name given twice joins its values with \",\")")
  List<String> headers = List.of();

  @Option(names = "--listener", paramLabel = "NAME", description = "the listener (default: see above)")
  String listener;

  @Option(names = "--json", description = "print the documented JSON (schema jxds.route/v1) instead of a table")
  boolean json;

  @Override
  public Integer call() throws Exception {
    TrafficPlan plan = Snapshot.read(files.toArray(Path[]::new)).plan();
    RequestRoute route;
    try {
      Map<String, String> h = headers();
      route = listener == null ? plan.request(authority, path, h) : plan.request(listener, authority, path, h);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    int code = !route.routed() ? Main.NOT_ROUTED : plan.check().anyNacked() ? Main.NACKED : 0;
    spec.commandLine().getOut().print(json ? RouteOutput.json(route, plan, code) + "\n"
        : RouteOutput.table(route, plan, authority, path));
    return code;
  }

  private Map<String, String> headers() throws BadInputException {
    Map<String, String> h = new LinkedHashMap<>();
    for (String header : headers) {
      int eq = header.indexOf('=');
      if (eq <= 0) {
        throw new BadInputException("--header must be NAME=VALUE, got " + header);
      }
      h.merge(header.substring(0, eq).toLowerCase(Locale.ROOT), header.substring(eq + 1), (a, b) -> a + "," + b);
    }
    return h;
  }
}
