/**
 * An application on the module path that uses jxds as a user would. jxds's jars are automatic
 * modules (docs/module-path.md): reading one reads them all, envoy's protos included.
 */
module jxds.modulepath {
  requires io.jxds.balancer;
  requires io.jxds.testing;
  requires io.grpc.stub;
}
