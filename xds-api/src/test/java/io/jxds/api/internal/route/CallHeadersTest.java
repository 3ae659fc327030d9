package io.jxds.api.internal.route;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Metadata;
import org.junit.jupiter.api.Test;

class CallHeadersTest {
  @Test
  void eachHeaderIsReadOnceAndAbsenceRemembered() {
    Metadata m = new Metadata();
    m.put(Metadata.Key.of("x-version", Metadata.ASCII_STRING_MARSHALLER), "v2");
    CallHeaders headers =
        new CallHeaders(m, new HeaderReader[] {HeaderReader.of("x-version"), HeaderReader.of("x-no")});
    String first = headers.value(0);
    assertThat(first).isEqualTo("v2");
    assertThat(headers.value(0)).isSameAs(first); // the ASCII marshaller makes a new String per read
    assertThat(headers.value(1)).isNull();
    m.put(Metadata.Key.of("x-no", Metadata.ASCII_STRING_MARSHALLER), "late");
    assertThat(headers.value(1)).isNull(); // read once, for one match
  }
}
