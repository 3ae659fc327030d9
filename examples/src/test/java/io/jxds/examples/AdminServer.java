package io.jxds.examples;

// docs/operating.md:begin
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.jxds.client.csds.XdsCsdsService;
import java.io.IOException;

final class AdminServer {
  /** An admin server, e.g. Grpc.newServerBuilderForPort(8081, creds), that answers CSDS. */
  static Server start(ServerBuilder<?> admin) throws IOException {
    return admin
        .addService(new XdsCsdsService()) // every jxds xDS client of the process
        .build()
        .start();
  }
}
// docs/operating.md:end
