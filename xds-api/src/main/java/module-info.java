/**
 * The jxds vocabulary: the {@link io.jxds.api.XdsClient} contract, resource types and watchers,
 * and the immutable model of validated Clusters and ClusterLoadAssignments.
 *
 * <p>{@code api} is java-control-plane's jar of generated envoy protos, an automatic module named
 * after its file; the model's decoders read those messages, and users build them.
 */
@SuppressWarnings({"requires-transitive-automatic", "requires-automatic", "module"})
module io.jxds.api {
  requires transitive api;
  requires transitive com.google.protobuf;
  requires transitive io.grpc;

  exports io.jxds.api;
  exports io.jxds.api.model;
  exports io.jxds.api.testing;
  // Decoding seams of jxds's own modules (ARCHITECTURE.md, "Where the code lives"): not API.
  exports io.jxds.api.internal to io.jxds.client, io.jxds.balancer;
  exports io.jxds.api.internal.decode to io.jxds.client;
}
