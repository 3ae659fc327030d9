package io.jxds.api.internal.decode;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.EndpointsUpdate;

/**
 * Every rule of {@link EndpointsDecoderTest}, decoded from the wire bytes with {@link
 * EndpointsDecoder#decode(ByteString)}: the same model or the same message. An assignment the tree
 * decoder accepts must also be accepted by the one-pass reader itself, not only by its fallback.
 */
class EndpointsDecoderBytesTest extends EndpointsDecoderTest {
  @Override
  EndpointsUpdate decode(ClusterLoadAssignment cla) throws XdsResourceException {
    ByteString bytes = cla.toByteString();
    EndpointsUpdate update = EndpointsDecoder.decode(bytes);
    assertThat(EndpointsDecoder.decodeInOnePass(bytes)).as("one-pass result").contains(update);
    return update;
  }
}
