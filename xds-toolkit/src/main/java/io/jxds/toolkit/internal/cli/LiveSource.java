package io.jxds.toolkit.internal.cli;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.ChannelCredentials;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.client.bootstrap.Bootstrap;
import io.jxds.client.bootstrap.BootstrapException;
import io.jxds.client.bootstrap.ChannelCredentialsSpec;
import io.jxds.client.internal.DurationText;
import io.jxds.client.internal.bootstrap.BootstrapParser;
import io.jxds.toolkit.BadInputException;
import io.jxds.toolkit.Snapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The options of a live check ({@code --xds-server HOST:PORT --node ID --listener NAME}) and the
 * fetch they describe: a jxds client of the given node on a channel of its own to the server,
 * plaintext unless a TLS option is given, closed when the fetch ends.
 */
final class LiveSource {
  @Option(names = "--xds-server", paramLabel = "HOST:PORT",
      description = "fetch from this control plane (any gRPC target) instead of reading FILEs")
  String server;

  @Option(names = "--bootstrap", paramLabel = "FILE",
      description = "fetch as the client of this gRPC xDS bootstrap would: its server, credentials, node and"
          + " certificate providers (instead of --xds-server)")
  Path bootstrap;

  @Option(names = "--node", paramLabel = "ID",
      description = "the node id to fetch as (with --xds-server; with --bootstrap, replaces its node's id)")
  String node;

  @Option(names = "--listener", paramLabel = "NAME",
      description = "fetch this listener, its routes, their clusters and endpoints (with --xds-server)")
  String listener;

  @Option(names = "--cluster", paramLabel = "NAME",
      description = "fetch this cluster and its endpoints (with --xds-server)")
  String cluster;

  @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "5s",
      description = "how long to wait for the control plane's answers, e.g. 5s, 500ms (default: ${DEFAULT-VALUE})")
  String timeout;

  @Option(names = "--tls", description = "connect over TLS, trusting the JVM's trust store (or --ca-certificate)")
  boolean tls;

  @Option(names = "--ca-certificate", paramLabel = "FILE", description = "TLS: the CA certificates to trust (PEM)")
  Path caCertificate;

  @Option(names = "--certificate", paramLabel = "FILE",
      description = "mutual TLS: the client certificate (PEM), with --private-key")
  Path certificate;

  @Option(names = "--private-key", paramLabel = "FILE", description = "mutual TLS: the client's private key (PEM)")
  Path privateKey;

  boolean isLive() {
    return server != null || bootstrap != null;
  }

  /** Checks that the options fit together, naming the one that does not. */
  void validate(CommandSpec spec, boolean hasFiles) {
    if (bootstrap != null) {
      if (server != null || tls || caCertificate != null || certificate != null || privateKey != null) {
        throw new ParameterException(spec.commandLine(),
            "either --bootstrap or --xds-server (and the TLS options), not both");
      }
    } else if (server == null) {
      if (node != null || listener != null || cluster != null || tls || caCertificate != null || certificate != null
          || privateKey != null) {
        throw new ParameterException(spec.commandLine(),
            "--node, --listener, --cluster and the TLS options go with --xds-server HOST:PORT");
      }
      if (!hasFiles) {
        throw new ParameterException(spec.commandLine(), "name FILEs to read, or --xds-server HOST:PORT to fetch from");
      }
      return;
    }
    if (hasFiles) {
      throw new ParameterException(spec.commandLine(), "either FILEs or --xds-server, not both");
    }
    if (node == null && bootstrap == null) {
      throw new ParameterException(spec.commandLine(), "--xds-server needs --node ID: the node to fetch as");
    }
    if ((listener == null) == (cluster == null)) {
      throw new ParameterException(spec.commandLine(), (bootstrap != null ? "--bootstrap" : "--xds-server")
          + " needs one of --listener NAME and --cluster NAME");
    }
    if ((certificate == null) != (privateKey == null)) {
      throw new ParameterException(spec.commandLine(), "--certificate and --private-key go together");
    }
    duration(spec);
  }

  /** What the fetch starts from, for the header line. */
  String root() {
    return listener != null ? "listener \"" + listener + "\"" : "cluster \"" + cluster + "\"";
  }

  /** Fetches through a client of its own. */
  Snapshot fetch(CommandSpec spec) throws BadInputException, InterruptedException {
    Duration wait = duration(spec);
    XdsClientBuilder builder;
    String where;
    if (bootstrap != null) {
      Bootstrap parsed = bootstrap();
      where = "xDS server " + parsed.server().serverUri();
      try {
        builder = XdsClientBuilder.fromBootstrap(parsed);
      } catch (RuntimeException e) {
        throw new BadInputException("bootstrap " + bootstrap + ": " + e.getMessage(), e);
      }
      if (node != null) {
        builder.node(parsed.node().toBuilder().setId(node).build());
      }
    } else {
      where = "xDS server " + server;
      builder = XdsClientBuilder.forTarget(server, credentials()).node(Node.newBuilder().setId(node).build());
    }
    try (DefaultXdsClient client = builder.resourceTimeout(wait).build()) {
      return listener != null ? Snapshot.fetchListener(client, listener, wait) : Snapshot.fetchCluster(client, cluster,
          wait);
    } catch (BadInputException | IllegalArgumentException e) {
      throw new BadInputException(where + ": " + e.getMessage(), e);
    }
  }

  private Bootstrap bootstrap() throws BadInputException {
    try {
      return BootstrapParser.parse(Files.readString(bootstrap), bootstrap.toString());
    } catch (IOException e) {
      throw new BadInputException("bootstrap " + bootstrap + ": cannot read: " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : " " + e.getMessage()), e);
    } catch (BootstrapException e) {
      throw new BadInputException("bootstrap " + e.getMessage(), e); // the message starts with the file
    }
  }

  private Duration duration(CommandSpec spec) {
    try {
      Duration d = DurationText.parse(timeout);
      if (d.isZero()) {
        throw new IllegalArgumentException("must be positive");
      }
      return d;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--timeout " + timeout + ": " + e.getMessage());
    }
  }

  private ChannelCredentials credentials() throws BadInputException {
    boolean secure = tls || caCertificate != null || certificate != null;
    ChannelCredentialsSpec spec = secure
        ? new ChannelCredentialsSpec(ChannelCredentialsSpec.TLS, text(caCertificate), text(certificate),
            text(privateKey))
        : ChannelCredentialsSpec.insecure();
    try {
      return spec.toChannelCredentials();
    } catch (RuntimeException e) {
      throw new BadInputException("TLS credentials: " + e.getMessage(), e);
    }
  }

  private static Optional<String> text(Path file) {
    return Optional.ofNullable(file).map(Path::toString);
  }
}
