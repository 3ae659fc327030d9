package io.jxds.api.internal.route;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Metadata;
import org.junit.jupiter.api.Test;

class CallStateTest {
  @Test
  void eachHeaderIsReadOnceAndAbsenceRemembered() {
    Metadata m = new Metadata();
    m.put(Metadata.Key.of("x-version", Metadata.ASCII_STRING_MARSHALLER), "v2");
    CallState headers =
        new CallState(m, new HeaderReader[] {HeaderReader.of("x-version"), HeaderReader.of("x-no")}, 0);
    String first = headers.value(0);
    assertThat(first).isEqualTo("v2");
    assertThat(headers.value(0)).isSameAs(first); // the ASCII marshaller makes a new String per read
    assertThat(headers.value(1)).isNull();
    m.put(Metadata.Key.of("x-no", Metadata.ASCII_STRING_MARSHALLER), "late");
    assertThat(headers.value(1)).isNull(); // read once, for one match
  }

  @Test
  void aSharedPathMatcherRunsOnce() {
    CallState call = new CallState(new Metadata(), new HeaderReader[0], 2);
    PathMatch prefix = new PathMatch(new io.jxds.api.model.route.StringMatcher.Prefix("/echo.", false));
    assertThat(call.pathMatches(0, prefix, "echo.Echo/Say")).isTrue();
    // the remembered answer stands for index 0, whatever matcher is passed again
    PathMatch other = new PathMatch(new io.jxds.api.model.route.StringMatcher.Prefix("/other.", false));
    assertThat(call.pathMatches(0, other, "echo.Echo/Say")).isTrue();
    assertThat(call.pathMatches(1, other, "echo.Echo/Say")).isFalse();
    assertThat(CallState.NONE.pathMatches(0, other, "echo.Echo/Say")).isFalse();
  }
}
