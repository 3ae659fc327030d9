/**
 * The jxds vocabulary: the {@link io.jxds.api.XdsClient} contract, resource types and watchers,
 * and the immutable model of validated Clusters and ClusterLoadAssignments.
 *
 * <p>{@code api} is java-control-plane's jar of generated envoy protos, an automatic module named
 * after its file; the model's decoders read those messages, and users build them. {@code re2j} is
 * RE2/J, which runs every {@code safe_regex}; its jar declares no module name either, so it too is
 * named after its file. No RE2/J type appears in the API, so it is not required transitively.
 */
@SuppressWarnings({"requires-transitive-automatic", "requires-automatic", "module"})
module io.jxds.api {
  requires transitive api;
  requires transitive com.google.protobuf;
  requires transitive io.grpc;
  requires re2j;

  exports io.jxds.api;
  exports io.jxds.api.model;
  exports io.jxds.api.testing;
  // Decoding seams of jxds's own modules (ARCHITECTURE.md, "Where the code lives"): not API.
  exports io.jxds.api.internal to io.jxds.client, io.jxds.balancer;
  exports io.jxds.api.internal.decode to io.jxds.client;
}
