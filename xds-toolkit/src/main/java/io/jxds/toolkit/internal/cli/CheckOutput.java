package io.jxds.toolkit.internal.cli;

import io.jxds.api.model.LocalityId;
import io.jxds.toolkit.CheckReport;
import io.jxds.toolkit.ClusterPlan;
import io.jxds.toolkit.DropPlan;
import io.jxds.toolkit.EndpointPlan;
import io.jxds.toolkit.IgnoredField;
import io.jxds.toolkit.ListenerPlan;
import io.jxds.toolkit.LocalityPlan;
import io.jxds.toolkit.PriorityPlan;
import io.jxds.toolkit.ResourceVerdict;
import io.jxds.toolkit.RouteCluster;
import io.jxds.toolkit.RoutePlan;
import io.jxds.toolkit.TrafficPlan;
import io.jxds.toolkit.VirtualHostPlan;
import io.jxds.toolkit.internal.plan.PlanDiffer;
import java.util.OptionalInt;

/**
 * {@code ./jxds check}'s output: tables for people, or the documented JSON ({@code jxds.check/v1},
 * docs/toolkit.md) for tools.
 */
final class CheckOutput {
  static final String SCHEMA = "jxds.check/v1";

  private CheckOutput() {}

  static String tables(TrafficPlan plan) {
    StringBuilder out = new StringBuilder();
    resources(plan.check(), out);
    for (ListenerPlan l : plan.listeners()) {
      out.append('\n');
      listener(l, out);
    }
    // Each cluster's lines are written apart, in parallel, and go in in order.
    plan.clusters().parallelStream().map(c -> {
      StringBuilder lines = new StringBuilder(256 + 100 * c.endpoints().size()).append('\n');
      cluster(c, lines);
      return lines;
    }).forEachOrdered(out::append);
    return out.toString();
  }

  private static void resources(CheckReport check, StringBuilder out) {
    long nacked = check.nacked().size();
    out.append("resources: ").append(check.resources().size()).append(", ")
        .append(check.resources().size() - nacked).append(" accepted, ").append(nacked).append(" NACKed\n");
    Table t = new Table("  ", "TYPE", "NAME", "VERDICT", "SOURCE");
    for (ResourceVerdict v : check.resources()) {
      t.row(v.type(), v.name().isEmpty() ? "?" : v.name(),
          v.accepted() ? "accepted" : "NACK", v.source());
    }
    t.print(out);
    for (ResourceVerdict v : check.resources()) {
      v.nack().ifPresent(n -> out.append("  NACK ").append(v.type()).append(" \"").append(v.name()).append("\": ")
          .append(n).append('\n'));
      for (IgnoredField f : v.ignoredFields()) {
        out.append("  ignored by gRPC: ").append(v.type()).append(" \"").append(v.name()).append("\" ").append(f)
            .append('\n');
      }
    }
    for (String note : check.notes()) {
      out.append("  note: ").append(note).append('\n');
    }
  }

  private static void listener(ListenerPlan l, StringBuilder out) {
    out.append("listener ").append(l.name()).append(": ").append(l.state());
    if (l.state() == ListenerPlan.State.ROUTING) {
      out.append(l.inline() ? ", inline routes" : ", routes from " + l.routeConfigurationName());
    }
    out.append('\n');
    if (!l.detail().isEmpty()) {
      out.append("  ").append(l.detail()).append('\n');
    }
    for (VirtualHostPlan h : l.virtualHosts()) {
      out.append("  virtual host ").append(h.name()).append(": domains ").append(String.join(", ", h.domains()))
          .append('\n');
      Table t = new Table("  ", "#", "ROUTE", "MATCH", "CLUSTERS");
      for (int i = 0; i < h.routes().size(); i++) {
        RoutePlan r = h.routes().get(i);
        t.row(String.valueOf(i), r.name(), r.match(), clusters(r));
      }
      t.print(out);
    }
  }

  /** {@code payments 90 (90.000%), payments-v2 10 (10.000%)}; a single cluster by name. */
  static String clusters(RoutePlan r) {
    if (r.notForwarded().isPresent()) {
      return r.notForwarded().get() + ": calls fail (gRPC does not serve it)";
    }
    if (r.clusters().size() == 1) {
      return r.clusters().get(0).name();
    }
    StringBuilder s = new StringBuilder();
    for (RouteCluster c : r.clusters()) {
      s.append(s.length() == 0 ? "" : ", ").append(c.name()).append(' ').append(c.weight()).append(" (")
          .append(Texts.PERCENT.format(c.share().toDouble() * 100)).append(')');
    }
    return s.toString();
  }

  private static void cluster(ClusterPlan c, StringBuilder out) {
    out.append("cluster ").append(c.name()).append(": ").append(c.state());
    c.lbPolicy().ifPresent(p -> out.append(", ").append(Texts.policy(p)));
    if (c.servingPriority().isPresent()) {
      out.append(", priority ").append(c.servingPriority().getAsInt()).append(" serves");
      out.append(c.nextPriority().isPresent() ? " (next: " + c.nextPriority().getAsInt() + ")" : " (no next)");
    }
    out.append('\n');
    if (!c.detail().isEmpty()) {
      out.append("  ").append(c.detail()).append('\n');
    }
    if (c.state() == ClusterPlan.State.CLUSTER_NACKED) {
      return;
    }
    out.append("  endpoints from ").append(c.edsServiceName()).append(", max_requests ")
        .append(c.maxConcurrentRequests()).append(", ").append(c.tls().map(Texts::tls).orElse("plaintext"))
        .append(c.loadReporting() ? ", load reporting on" : "").append('\n');
    out.append("  outlier detection: ").append(OutlierTexts.line(c.outlierDetection())).append('\n');
    if (!c.drops().isEmpty()) {
      out.append("  drops:");
      for (DropPlan d : c.drops()) {
        out.append(' ').append(d.category()).append(' ').append(Texts.share(d.rate())).append(';');
      }
      out.append(" in all ").append(Texts.share(c.dropped())).append('\n');
    }
    for (LocalityId id : c.unweightedLocalities()) {
      out.append("  no weight, no traffic: ").append(PlanDiffer.name(id)).append('\n');
    }
    if (c.priorities().isEmpty()) {
      return;
    }
    out.append("  shares of picked RPCs (").append(c.shareBasis()).append(")\n");
    Table t = new Table("  ", "PRIORITY", "LOCALITY", "ENDPOINT", "HEALTH", "WEIGHT", "SHARE");
    for (PriorityPlan p : c.priorities()) {
      boolean first = true;
      for (LocalityPlan l : p.localities()) {
        t.row(first ? p.priority() + " " + p.role() : "", PlanDiffer.name(l.id()), "", l.usable() ? "" : "no usable",
            String.valueOf(l.weight()), shareText(l.share(), l.shareInPriority(), p.role()));
        first = false;
        for (EndpointPlan e : l.endpoints()) {
          t.row("", "", e.address(), e.health().name(), String.valueOf(e.weight()),
              shareText(e.share(), e.shareInPriority(), p.role()));
        }
      }
    }
    t.print(out);
  }

  private static String shareText(io.jxds.toolkit.Fraction share, io.jxds.toolkit.Fraction inPriority,
      PriorityPlan.Role role) {
    if (role == PriorityPlan.Role.SERVING || inPriority.isZero()) {
      return Texts.share(share);
    }
    return "0 (" + Texts.share(inPriority) + " if it serves)";
  }

  static String json(TrafficPlan plan, int exitCode) {
    return json(plan, exitCode, new Json()).toString();
  }

  /** Writes the JSON to {@code out} as it goes. */
  static void json(TrafficPlan plan, int exitCode, java.io.Writer out) {
    json(plan, exitCode, new Json(out)).flush();
  }

  private static Json json(TrafficPlan plan, int exitCode, Json json) {
    Json j = json.begin().string("schema", SCHEMA).number("exitCode", exitCode);
    j.beginArray("resources");
    for (ResourceVerdict v : plan.check().resources()) {
      j.beginElement().string("type", v.type()).string("name", v.name()).string("source", v.source())
          .bool("accepted", v.accepted()).bool("validated", v.validated());
      if (v.nack().isPresent()) {
        j.string("nack", v.nack().get());
      } else {
        j.nullValue("nack");
      }
      j.beginArray("ignoredFields");
      for (IgnoredField f : v.ignoredFields()) {
        j.beginElement().string("field", f.field()).number("occurrences", f.occurrences())
            .string("reason", f.reason()).end();
      }
      j.endArray().end();
    }
    j.endArray();
    j.beginArray("notes");
    plan.check().notes().forEach(j::stringElement);
    j.endArray();
    j.beginArray("listeners");
    for (ListenerPlan l : plan.listeners()) {
      listenerJson(l, j);
    }
    j.endArray();
    j.beginArray("clusters");
    // Each cluster's text is written apart, in parallel, and goes in in order: the same text.
    int depth = j.depth();
    plan.clusters().parallelStream().map(c -> {
      Json element = Json.fragment(depth, 1024 + 420 * c.endpoints().size());
      clusterJson(c, element);
      return element.fragment();
    }).forEachOrdered(j::element);
    j.endArray();
    return j.end();
  }

  private static void listenerJson(ListenerPlan l, Json j) {
    j.beginElement().string("name", l.name()).string("state", l.state().name()).string("detail", l.detail())
        .string("routeConfigurationName", l.routeConfigurationName()).bool("inline", l.inline());
    j.beginArray("virtualHosts");
    for (VirtualHostPlan h : l.virtualHosts()) {
      j.beginElement().string("name", h.name());
      j.beginArray("domains");
      h.domains().forEach(j::stringElement);
      j.endArray();
      j.beginArray("routes");
      for (RoutePlan r : h.routes()) {
        j.beginElement().string("name", r.name()).string("match", r.match());
        if (r.notForwarded().isPresent()) {
          j.string("notForwarded", r.notForwarded().get());
        } else {
          j.nullValue("notForwarded");
        }
        j.beginArray("clusters");
        for (RouteCluster c : r.clusters()) {
          j.beginElement().string("name", c.name()).number("weight", c.weight()).fraction("share", c.share()).end();
        }
        j.endArray().end();
      }
      j.endArray().end();
    }
    j.endArray().end();
  }

  private static void clusterJson(ClusterPlan c, Json j) {
    j.beginElement().string("name", c.name()).string("state", c.state().name()).string("detail", c.detail())
        .string("edsServiceName", c.edsServiceName());
    if (c.lbPolicy().isPresent()) {
      j.string("lbPolicy", Texts.policy(c.lbPolicy().get()));
    } else {
      j.nullValue("lbPolicy");
    }
    j.string("shareBasis", c.shareBasis().name());
    optionalInt(j, "servingPriority", c.servingPriority());
    optionalInt(j, "nextPriority", c.nextPriority());
    j.number("maxConcurrentRequests", c.maxConcurrentRequests()).bool("loadReporting", c.loadReporting());
    if (c.tls().isPresent()) {
      var t = c.tls().get();
      j.beginObject("tls").bool("mutual", t.identityCertificate().isPresent())
          .string("identityCertificateProvider", t.identityCertificate().map(p -> p.instanceName()).orElse(""))
          .string("rootCertificateProvider", t.rootCertificates().map(p -> p.instanceName()).orElse(""))
          .bool("systemRootCertificates", t.systemRootCertificates()).string("sni", t.sni());
      j.beginArray("subjectAltNameMatchers");
      t.subjectAltNameMatchers().forEach(m -> j.stringElement(m.toString()));
      j.endArray().end();
    } else {
      j.nullValue("tls");
    }
    OutlierTexts.json(j, c.outlierDetection());
    j.fraction("dropped", c.dropped());
    j.beginArray("drops");
    for (DropPlan d : c.drops()) {
      j.beginElement().string("category", d.category()).number("partsPerMillion", d.partsPerMillion())
          .fraction("rate", d.rate()).end();
    }
    j.endArray();
    j.beginArray("unweightedLocalities");
    for (LocalityId id : c.unweightedLocalities()) {
      locality(j.beginElement(), id).end();
    }
    j.endArray();
    j.beginArray("priorities");
    for (PriorityPlan p : c.priorities()) {
      j.beginElement().number("priority", p.priority()).string("role", p.role().name());
      j.beginArray("localities");
      for (LocalityPlan l : p.localities()) {
        locality(j.beginElement(), l.id()).number("weight", l.weight()).bool("usable", l.usable())
            .fraction("share", l.share()).fraction("shareInPriority", l.shareInPriority());
        j.beginArray("endpoints");
        for (EndpointPlan e : l.endpoints()) {
          j.beginElement().string("address", e.address()).string("health", e.health().name())
              .number("weight", e.weight()).fraction("share", e.share())
              .fraction("shareInPriority", e.shareInPriority()).end();
        }
        j.endArray().end();
      }
      j.endArray().end();
    }
    j.endArray().end();
  }

  private static Json locality(Json j, LocalityId id) {
    return j.string("region", id.region()).string("zone", id.zone()).string("subZone", id.subZone());
  }

  private static void optionalInt(Json j, String name, OptionalInt value) {
    if (value.isPresent()) {
      j.number(name, value.getAsInt());
    } else {
      j.nullValue(name);
    }
  }
}
