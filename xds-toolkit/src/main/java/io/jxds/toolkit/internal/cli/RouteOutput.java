package io.jxds.toolkit.internal.cli;

import io.jxds.toolkit.ClusterPlan;
import io.jxds.toolkit.RequestRoute;
import io.jxds.toolkit.RouteCluster;
import io.jxds.toolkit.TrafficPlan;

/** {@code ./jxds route}'s output: a table, or the documented JSON ({@code jxds.route/v1}). */
final class RouteOutput {
  static final String SCHEMA = "jxds.route/v1";

  private RouteOutput() {}

  static String table(RequestRoute route, TrafficPlan plan, String authority, String path) {
    StringBuilder out = new StringBuilder();
    out.append("request ").append(authority).append(' ').append(path).append(": listener ").append(route.listener());
    route.virtualHost().ifPresent(v -> out.append(", virtual host ").append(v));
    out.append('\n');
    Table t = new Table("  ", "SHARE", "ROUTE", "CLUSTER", "WEIGHT", "CLUSTER STATE");
    StringBuilder failures = new StringBuilder();
    for (RequestRoute.Outcome o : route.outcomes()) {
      if (o.failure().isPresent()) {
        failures.append("  ").append(Texts.share(o.probability())).append(" fails: ").append(o.failure().get())
            .append('\n');
        continue;
      }
      for (RouteCluster c : o.clusters()) {
        t.row(Texts.share(o.probability().times(c.share())), o.route().orElse(""), c.name(),
            String.valueOf(c.weight()),
            plan.cluster(c.name()).map(ClusterPlan::state).map(Enum::name).orElse("not in the snapshot"));
      }
    }
    if (!route.clusters().isEmpty()) {
      t.print(out);
    }
    out.append(failures);
    for (var v : plan.check().nacked()) {
      out.append("  NACK ").append(v.type()).append(" \"").append(v.name()).append("\": ").append(v.nack().orElse(""))
          .append('\n');
    }
    return out.toString();
  }

  static String json(RequestRoute route, TrafficPlan plan, int exitCode) {
    Json j = new Json().begin().string("schema", SCHEMA).number("exitCode", exitCode)
        .string("listener", route.listener());
    if (route.virtualHost().isPresent()) {
      j.string("virtualHost", route.virtualHost().get());
    } else {
      j.nullValue("virtualHost");
    }
    j.bool("routed", route.routed());
    j.beginArray("outcomes");
    for (RequestRoute.Outcome o : route.outcomes()) {
      j.beginElement().fraction("probability", o.probability());
      if (o.route().isPresent()) {
        j.string("route", o.route().get());
      } else {
        j.nullValue("route");
      }
      if (o.failure().isPresent()) {
        j.string("failure", o.failure().get());
      } else {
        j.nullValue("failure");
      }
      clusters(j, o.clusters(), plan);
      j.end();
    }
    j.endArray();
    clusters(j, route.clusters(), plan);
    return j.end().toString();
  }

  private static void clusters(Json j, java.util.List<RouteCluster> clusters, TrafficPlan plan) {
    j.beginArray("clusters");
    for (RouteCluster c : clusters) {
      j.beginElement().string("name", c.name()).number("weight", c.weight()).fraction("share", c.share())
          .string("clusterState", plan.cluster(c.name()).map(p -> p.state().name()).orElse("ABSENT")).end();
    }
    j.endArray();
  }
}
