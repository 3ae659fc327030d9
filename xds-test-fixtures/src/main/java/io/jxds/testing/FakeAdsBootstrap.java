package io.jxds.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Builds gRPC-format xDS bootstrap JSON that points at one {@link FakeAdsServer}; get one from
 * {@link FakeAdsServer#bootstrap()}. The result is read by grpc-java's xDS client as well as by
 * jxds:
 *
 * <pre>{@code
 * {
 *   "xds_servers": [{"server_uri": "127.0.0.1:PORT", "channel_creds": [{"type": "insecure"}],
 *                    "server_features": []}],
 *   "node": {"id": "jxds-test-node", "cluster": "jxds-test-cluster"},
 *   "jxds": {"resource_timeout": "2s"}
 * }
 * }</pre>
 *
 * <p>The {@code "jxds"} object appears only when a jxds option is set; other clients ignore it.
 * Not thread-safe; build on one thread.
 */
public final class FakeAdsBootstrap {
  /** The node id used unless {@link #nodeId} sets another. */
  public static final String DEFAULT_NODE_ID = "jxds-test-node";
  /** The node cluster used unless {@link #nodeCluster} sets another. */
  public static final String DEFAULT_NODE_CLUSTER = "jxds-test-cluster";

  private final String serverUri;
  private String nodeId = DEFAULT_NODE_ID;
  private String nodeCluster = DEFAULT_NODE_CLUSTER;
  private String @Nullable [] locality; // region, zone, sub_zone; null for none
  private final List<String> serverFeatures = new ArrayList<>();
  private final List<String> fallbackUris = new ArrayList<>();
  private final Map<String, String> jxdsOptions = new LinkedHashMap<>();
  private final Map<String, String> certificateProviders = new LinkedHashMap<>();
  private String channelCredentials = "{\"type\": \"insecure\"}";

  FakeAdsBootstrap(String serverUri) {
    this.serverUri = serverUri;
  }

  /**
   * Sets {@code node.id}.
   *
   * @param id the node id
   * @return this builder
   */
  public FakeAdsBootstrap nodeId(String id) {
    this.nodeId = Objects.requireNonNull(id, "id");
    return this;
  }

  /**
   * Sets {@code node.cluster}.
   *
   * @param cluster the node's cluster
   * @return this builder
   */
  public FakeAdsBootstrap nodeCluster(String cluster) {
    this.nodeCluster = Objects.requireNonNull(cluster, "cluster");
    return this;
  }

  /**
   * Sets {@code node.locality}.
   *
   * @param region the {@code region}
   * @param zone the {@code zone}
   * @param subZone the {@code sub_zone}
   * @return this builder
   */
  public FakeAdsBootstrap nodeLocality(String region, String zone, String subZone) {
    this.locality =
        new String[] {
          Objects.requireNonNull(region, "region"),
          Objects.requireNonNull(zone, "zone"),
          Objects.requireNonNull(subZone, "subZone")
        };
    return this;
  }

  /**
   * Adds entries to the server's {@code server_features}, such as {@code
   * "ignore_resource_deletion"} (gRFC A53).
   *
   * @param features the features to add
   * @return this builder
   */
  public FakeAdsBootstrap serverFeatures(String... features) {
    for (String feature : features) {
      serverFeatures.add(Objects.requireNonNull(feature, "feature"));
    }
    return this;
  }

  /**
   * Adds a fallback server after this one in {@code xds_servers} (gRFC A71), with insecure
   * credentials and the same {@code server_features}.
   *
   * @param serverUri the fallback's address, for example another server's {@link
   *     FakeAdsServer#serverUri()}
   * @return this builder
   */
  public FakeAdsBootstrap fallbackServer(String serverUri) {
    fallbackUris.add(Objects.requireNonNull(serverUri, "serverUri"));
    return this;
  }

  /**
   * Sets a jxds-only knob in the top-level {@code "jxds"} object, as a JSON string, for example
   * {@code jxdsOption("resource_timeout", "2s")}.
   *
   * @param name the knob's name, e.g. {@code resource_timeout}
   * @param value its value, written as a JSON string
   * @return this builder
   */
  public FakeAdsBootstrap jxdsOption(String name, String value) {
    jxdsOptions.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return this;
  }

  /**
   * Adds a {@code file_watcher} entry to {@code certificate_providers} (gRFC A29).
   *
   * @param instance the instance name clusters refer to
   * @param certificateFile the identity's chain, or null for none
   * @param privateKeyFile its key, or null
   * @param caCertificateFile the roots, or null
   * @param refreshInterval e.g. {@code "1s"}, or null for the default
   * @return this builder
   */
  public FakeAdsBootstrap fileWatcherProvider(
      String instance, Path certificateFile, Path privateKeyFile, Path caCertificateFile, String refreshInterval) {
    String config = stringFields(
        "certificate_file", certificateFile,
        "private_key_file", privateKeyFile,
        "ca_certificate_file", caCertificateFile,
        "refresh_interval", refreshInterval);
    certificateProviders.put(Objects.requireNonNull(instance, "instance"),
        "{\"plugin_name\": \"file_watcher\", \"config\": " + config + "}");
    return this;
  }

  /**
   * Makes the control-plane channel TLS (gRFC A65): {@code channel_creds} {@code tls} with these
   * files; a null file is left out (no client certificate; the JVM's trust store).
   *
   * @param caCertificateFile the roots that verify the server
   * @param certificateFile the client's chain, for mutual TLS
   * @param privateKeyFile its key
   * @return this builder
   */
  public FakeAdsBootstrap tlsChannelCredentials(Path caCertificateFile, Path certificateFile, Path privateKeyFile) {
    String config = stringFields(
        "ca_certificate_file", caCertificateFile,
        "certificate_file", certificateFile,
        "private_key_file", privateKeyFile);
    channelCredentials = "{\"type\": \"tls\", \"config\": " + config + "}";
    return this;
  }

  /** A JSON object of the (name, value) pairs whose value is not null, each value as a string. */
  private static String stringFields(Object... namesAndValues) {
    StringBuilder json = new StringBuilder("{");
    String separator = "";
    for (int i = 0; i < namesAndValues.length; i += 2) {
      if (namesAndValues[i + 1] != null) {
        json.append(separator).append(quote((String) namesAndValues[i])).append(": ")
            .append(quote(namesAndValues[i + 1].toString()));
        separator = ", ";
      }
    }
    return json.append('}').toString();
  }

  /**
   * The bootstrap JSON text.
   *
   * @return the JSON, as a bootstrap file or {@code GRPC_XDS_BOOTSTRAP_CONFIG} holds it
   */
  public String build() {
    StringBuilder json = new StringBuilder();
    json.append("{\n  \"xds_servers\": [{\n    \"server_uri\": ").append(quote(serverUri))
        .append(",\n    \"channel_creds\": [").append(channelCredentials).append("],\n    \"server_features\": [");
    for (int i = 0; i < serverFeatures.size(); i++) {
      json.append(i == 0 ? "" : ", ").append(quote(serverFeatures.get(i)));
    }
    json.append("]\n  }");
    for (String fallback : fallbackUris) {
      json.append(", {\n    \"server_uri\": ").append(quote(fallback))
          .append(",\n    \"channel_creds\": [{\"type\": \"insecure\"}],\n    \"server_features\": [");
      for (int i = 0; i < serverFeatures.size(); i++) {
        json.append(i == 0 ? "" : ", ").append(quote(serverFeatures.get(i)));
      }
      json.append("]\n  }");
    }
    json.append("],\n  \"node\": {\"id\": ").append(quote(nodeId))
        .append(", \"cluster\": ").append(quote(nodeCluster));
    if (locality != null) {
      json.append(", \"locality\": {\"region\": ").append(quote(locality[0]))
          .append(", \"zone\": ").append(quote(locality[1]))
          .append(", \"sub_zone\": ").append(quote(locality[2])).append('}');
    }
    json.append('}');
    if (!certificateProviders.isEmpty()) {
      json.append(",\n  \"certificate_providers\": {");
      String separator = "";
      for (Map.Entry<String, String> provider : certificateProviders.entrySet()) {
        json.append(separator).append(quote(provider.getKey())).append(": ").append(provider.getValue());
        separator = ", ";
      }
      json.append('}');
    }
    if (!jxdsOptions.isEmpty()) {
      json.append(",\n  \"jxds\": {");
      String separator = "";
      for (Map.Entry<String, String> option : jxdsOptions.entrySet()) {
        json.append(separator).append(quote(option.getKey())).append(": ")
            .append(quote(option.getValue()));
        separator = ", ";
      }
      json.append('}');
    }
    return json.append("\n}\n").toString();
  }

  @Override
  public String toString() {
    return build();
  }

  /** A JSON string literal (RFC 8259, section 7). */
  static String quote(String s) {
    StringBuilder out = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
