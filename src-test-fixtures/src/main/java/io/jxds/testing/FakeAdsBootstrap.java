package io.jxds.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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
  private String[] locality; // region, zone, sub_zone; null for none
  private final List<String> serverFeatures = new ArrayList<>();
  private final List<String> fallbackUris = new ArrayList<>();
  private final Map<String, String> jxdsOptions = new LinkedHashMap<>();

  FakeAdsBootstrap(String serverUri) {
    this.serverUri = serverUri;
  }

  /** Sets {@code node.id}. */
  public FakeAdsBootstrap nodeId(String id) {
    this.nodeId = Objects.requireNonNull(id, "id");
    return this;
  }

  /** Sets {@code node.cluster}. */
  public FakeAdsBootstrap nodeCluster(String cluster) {
    this.nodeCluster = Objects.requireNonNull(cluster, "cluster");
    return this;
  }

  /** Sets {@code node.locality}. */
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
   */
  public FakeAdsBootstrap jxdsOption(String name, String value) {
    jxdsOptions.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return this;
  }

  /** The bootstrap JSON text. */
  public String build() {
    StringBuilder json = new StringBuilder();
    json.append("{\n  \"xds_servers\": [{\n    \"server_uri\": ").append(quote(serverUri))
        .append(",\n    \"channel_creds\": [{\"type\": \"insecure\"}],\n    \"server_features\": [");
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
