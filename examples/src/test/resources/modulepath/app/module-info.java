/** An application on the module path that uses jxds as a user would: only exported packages. */
module jxds.modulepath {
  requires io.jxds.balancer;
  requires io.jxds.testing;
  requires io.grpc.stub;
}
