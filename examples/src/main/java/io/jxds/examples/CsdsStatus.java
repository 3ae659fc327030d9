package io.jxds.examples;

import com.google.protobuf.Timestamp;
import io.envoyproxy.envoy.admin.v3.ClientResourceStatus;
import io.envoyproxy.envoy.service.status.v3.ClientConfig;
import io.envoyproxy.envoy.service.status.v3.ClientConfig.GenericXdsConfig;
import io.envoyproxy.envoy.service.status.v3.ClientStatusDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.status.v3.ClientStatusRequest;
import io.envoyproxy.envoy.service.status.v3.ClientStatusResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.jxds.client.csds.XdsCsdsService;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * {@code --status}: what this process's xDS clients hold, as CSDS (gRFC A40) reports it, in a
 * table. The dump is fetched through a real gRPC call to {@link XdsCsdsService} on an in-process
 * server, the way {@code grpcdebug} or any CSDS client would read it from an application's port.
 */
final class CsdsStatus {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
  /** The demo's lines fit 80 columns. */
  private static final int WIDTH = 80;
  private static final String ROW = "    %-4s %-16s %-14s %-7s %-12s %s";

  private CsdsStatus() {}

  /** Fetches the dump and prints it as one block (the live table may be printing too). */
  static void print(PrintStream out) throws IOException, InterruptedException {
    List<String> lines = render(fetch());
    synchronized (out) {
      lines.forEach(out::println);
    }
  }

  /** Calls {@code FetchClientStatus} on an in-process server holding the CSDS service. */
  static ClientStatusResponse fetch() throws IOException, InterruptedException {
    String name = "jxds-demo-csds-" + UUID.randomUUID();
    Server server = InProcessServerBuilder.forName(name).addService(new XdsCsdsService()).build().start();
    ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
    try {
      return ClientStatusDiscoveryServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(5, TimeUnit.SECONDS)
          .fetchClientStatus(ClientStatusRequest.getDefaultInstance());
    } finally {
      channel.shutdownNow();
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** The response as lines: one header per client, then one row per resource. */
  static List<String> render(ClientStatusResponse response) {
    List<String> out = new ArrayList<>();
    out.add("CSDS: " + response.getConfigCount() + " xDS client" + (response.getConfigCount() == 1 ? "" : "s"));
    for (ClientConfig client : response.getConfigList()) {
      out.add(fit("  node \"" + client.getNode().getId() + "\", control plane " + client.getClientScope() + ", "
          + client.getGenericXdsConfigsCount() + " resources"));
      out.add(String.format(ROW, "type", "name", "status", "version", "updated UTC", "size"));
      for (GenericXdsConfig r : client.getGenericXdsConfigsList()) {
        out.add(fit(String.format(ROW, shortType(r.getTypeUrl()), r.getName(), r.getClientStatus(),
            r.getVersionInfo().isEmpty() ? "-" : r.getVersionInfo(),
            r.hasLastUpdated() ? time(r.getLastUpdated()) : "-",
            r.hasXdsConfig() ? r.getXdsConfig().getValue().size() + " B" : "")));
        // gRFC A40: the two states that point at a problem say which.
        if (r.getClientStatus() == ClientResourceStatus.UNKNOWN) {
          out.add("      not requested yet: no stream to the control plane is ready");
        } else if (r.getClientStatus() == ClientResourceStatus.TIMEOUT) {
          out.add("      no answer within the resource timeout: taken as not existing");
        }
        if (r.hasErrorState()) {
          out.add(fit("      rejected version " + r.getErrorState().getVersionInfo() + ": "
              + r.getErrorState().getDetails()));
        }
      }
    }
    return out;
  }

  private static String fit(String line) {
    return line.length() > WIDTH ? line.substring(0, WIDTH - 3) + "..." : line;
  }

  /** The xDS service's short name for the common types, else the message's simple name. */
  private static String shortType(String typeUrl) {
    String simple = typeUrl.substring(typeUrl.lastIndexOf('.') + 1);
    return switch (simple) {
      case "Cluster" -> "CDS";
      case "ClusterLoadAssignment" -> "EDS";
      case "Listener" -> "LDS";
      case "RouteConfiguration" -> "RDS";
      default -> simple;
    };
  }

  private static String time(Timestamp t) {
    return TIME.format(Instant.ofEpochSecond(t.getSeconds(), t.getNanos()));
  }
}
