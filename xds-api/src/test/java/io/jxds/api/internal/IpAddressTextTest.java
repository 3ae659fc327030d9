package io.jxds.api.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** RFC 5952's canonical IPv6 text, and dotted-quad IPv4. */
class IpAddressTextTest {
  @ParameterizedTest
  @CsvSource({
      "2001:db8:0:0:0:0:0:1, 2001:db8::1",
      "2001:DB8::0001, 2001:db8::1",
      "0:0:0:0:0:0:0:1, ::1",
      "0:0:0:0:0:0:0:0, ::",
      "1:0:0:0:0:0:0:0, 1::",
      "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1", // one zero group stays
      "2001:0:0:1:0:0:0:1, 2001:0:0:1::1",           // the longest run
      "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1",     // the first of two equal runs
      "fe80:0:0:0:abcd:0:0:0, fe80::abcd:0:0:0",
      "::ffff:10.0.0.1, 10.0.0.1",                    // IPv4-mapped: the IPv4 address
      "10.0.0.1, 10.0.0.1",
  })
  void canonicalForm(String text, String canonical) {
    assertThat(IpAddressText.canonical(text)).contains(canonical);
  }

  @ParameterizedTest
  @ValueSource(strings = {"example.com", "010.0.0.1", "1.2.3", "[::1]", "fe80::1%eth0", "", "2001:db8::1::2"})
  void notAnIpLiteral(String text) {
    assertThat(IpAddressText.canonical(text)).isEmpty();
  }
}
