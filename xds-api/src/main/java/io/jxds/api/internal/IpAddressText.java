package io.jxds.api.internal;

import io.jxds.api.internal.decode.IpLiteral;
import java.net.InetAddress;
import java.util.Optional;

/**
 * The canonical text form of an IP address (gRFC A29 matches IP subject alternative names in it):
 * IPv4 as a dotted quad, IPv6 as RFC 5952 writes it, lower-case hex without leading zeros and the
 * longest run of two or more zero groups (the first, on a tie) written {@code ::}. Java's own text,
 * {@code 2001:db8:0:0:0:0:0:1}, becomes {@code 2001:db8::1}; {@code 2001:0:0:1:0:0:0:1} becomes
 * {@code 2001:0:0:1::1}. An IPv4-mapped IPv6 address ({@code ::ffff:10.0.0.1}) is the IPv4 address
 * it maps, as Java reads it: {@code 10.0.0.1}.
 */
public final class IpAddressText {
  private IpAddressText() {}

  /**
   * The canonical form of an IP literal; never a DNS lookup.
   *
   * @param text any text
   * @return its canonical form, or empty when {@code text} is not an IPv4 or IPv6 literal
   */
  public static Optional<String> canonical(String text) {
    InetAddress address = IpLiteral.parse(text);
    return address == null ? Optional.empty() : Optional.of(format(address.getAddress()));
  }

  static String format(byte[] a) {
    if (a.length == 4) {
      return (a[0] & 0xFF) + "." + (a[1] & 0xFF) + "." + (a[2] & 0xFF) + "." + (a[3] & 0xFF);
    }
    int[] groups = new int[8];
    for (int g = 0; g < 8; g++) {
      groups[g] = (a[2 * g] & 0xFF) << 8 | (a[2 * g + 1] & 0xFF);
    }
    int runStart = -1;
    int runLength = 1; // RFC 5952 4.2.2: a single zero group is not shortened
    for (int g = 0; g < 8; ) {
      int end = g;
      while (end < 8 && groups[end] == 0) {
        end++;
      }
      if (end - g > runLength) {
        runStart = g;
        runLength = end - g;
      }
      g = Math.max(end, g + 1);
    }
    StringBuilder text = new StringBuilder(39);
    for (int g = 0; g < 8; g++) {
      if (g == runStart) {
        text.append("::");
        g += runLength - 1;
        continue;
      }
      if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
        text.append(':');
      }
      text.append(Integer.toHexString(groups[g]));
    }
    return text.toString();
  }
}
