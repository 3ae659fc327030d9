package io.jxds.api.internal.decode;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IpLiteralTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "0.0.0.0", "10.0.0.1", "255.255.255.255", "::", "::1", "1::", "1:2:3:4:5:6:7:8", "1::8",
        "2001:DB8::abcd", "fe80::1:2", "1234::1", "123::4", "10.0.0.255", "100.200.250.9", "::ffff:1.2.3.4",
        "::1.2.3.4", "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5::8"
      })
  void literalsParseLikeTheJdk(String text) throws Exception {
    // For IP literals InetAddress.getByName does no DNS lookup, so it is a safe oracle here.
    assertThat(IpLiteral.parse(text)).isEqualTo(InetAddress.getByName(text));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "", "localhost", "example.com", "1.2.3", "1.2.3.4.5", "256.0.0.1", "01.2.3.4", "1.2.3.4 ", " 1.2.3.4",
        "1..2.3", "1.2.3.", "1.2.3.-4", ":", ":1", "1:", ":::", "1:::2", "1::2::3", "1:2:3:4:5:6:7:8:9",
        "1:2:3:4:5:6:7", "12345::", "1:2:3:4:5:6:7:8::", "[::1]", "fe80::1%eth0", "::g", "1:2:3:4:5:6:7:1.2.3.4",
        "::1.2.3", "1.2.3.4::", "192.168.001.1", "1.2.3.04", "255.255.255.256", "1.2.3.4.", "1.2.3.4:80", "1.2.3.1000",
        "1.2.3a", ".1.2.3", "::ffff:01.2.3.4", "１.2.3.4", "\u0131.2.3.4", "ı0.0.0.1",
        "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.2555"
      })
  void nonLiteralsAreRefused(String text) {
    assertThat(IpLiteral.parse(text)).isNull();
  }
}
