package io.jxds.balancer.internal.manager;

import io.grpc.NameResolver.ConfigOrError;
import io.grpc.Status;
import io.jxds.balancer.internal.ClusterPolicyConfig;
import io.jxds.balancer.internal.ClusterPolicyConfigParser;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Parses {@code {"jxds_cluster_manager": {"clusters": {"NAME": {xds_cluster config}, ...}}}}. An
 * entry's {@code cluster} may be left out (it is the entry's name) and, when given, must be the
 * entry's name. Every problem is an {@code INVALID_ARGUMENT} naming the entry and the field, as
 * {@link ClusterPolicyConfigParser} words the entry's own fields.
 */
public final class ClusterManagerConfigParser {
  private ClusterManagerConfigParser() {}

  /**
   * Parses the policy's JSON object.
   *
   * @param json the object under the policy's name
   * @return the {@link ClusterManagerConfig}, or the error
   */
  public static ConfigOrError parse(Map<String, ?> json) {
    Object clusters = json == null ? null : json.get("clusters");
    if (!(clusters instanceof Map<?, ?> entries)) {
      return invalid("\"clusters\" must be an object of xds_cluster configs by cluster name, got "
          + (clusters == null ? "nothing" : clusters.getClass().getSimpleName()));
    }
    Map<String, ClusterPolicyConfig> parsed = new TreeMap<>();
    for (Map.Entry<?, ?> entry : entries.entrySet()) {
      String name = String.valueOf(entry.getKey());
      if (name.isEmpty()) {
        return invalid("\"clusters\": a cluster name must not be empty");
      }
      if (!(entry.getValue() instanceof Map<?, ?> child)) {
        return invalid("\"clusters\".\"" + name + "\" must be an xds_cluster config object");
      }
      Map<String, Object> withName = new HashMap<>();
      child.forEach((k, v) -> withName.put(String.valueOf(k), v));
      Object cluster = withName.putIfAbsent("cluster", name);
      if (cluster != null && !name.equals(cluster)) {
        return invalid("\"clusters\".\"" + name + "\".\"cluster\" must be \"" + name + "\" (the entry's name), got "
            + cluster);
      }
      ConfigOrError childConfig = ClusterPolicyConfigParser.parse(withName);
      if (childConfig.getError() != null) {
        return invalid("\"clusters\".\"" + name + "\": " + childConfig.getError().getDescription());
      }
      parsed.put(name, (ClusterPolicyConfig) childConfig.getConfig());
    }
    return ConfigOrError.fromConfig(new ClusterManagerConfig(parsed));
  }

  private static ConfigOrError invalid(String message) {
    return ConfigOrError.fromError(Status.INVALID_ARGUMENT.withDescription(
        ClusterManagerLoadBalancerProvider.POLICY_NAME + " config: " + message));
  }
}
