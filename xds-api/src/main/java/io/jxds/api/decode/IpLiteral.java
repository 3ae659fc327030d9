package io.jxds.api.decode;

import com.google.protobuf.ByteString;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Parses an IPv4 or IPv6 literal straight from the UTF-8 bytes of
 * {@code socket_address.address}, without DNS and without building a {@code String}: gRFC A27
 * requires endpoint addresses to be IP literals, and {@link InetAddress#getByName} would resolve
 * anything else.
 *
 * <p>Accepted: dotted-quad IPv4 ({@code 10.0.0.1}; an octet with a leading zero such as
 * {@code 010} is refused because some parsers read it as octal), and IPv6 in the RFC 4291 text
 * forms, with at most one {@code ::} and an optional dotted-quad tail ({@code ::ffff:10.0.0.1}).
 * Refused: brackets, zone ids ({@code fe80::1%eth0}), hostnames, anything else.
 */
final class IpLiteral {
  private IpLiteral() {}

  /** The address, or null when {@code text} is not an IP literal. */
  static InetAddress parse(ByteString text) {
    int n = text.size();
    byte[] bytes;
    if (n >= 7 && n <= 15 && isV4Candidate(text, n)) {
      bytes = new byte[4];
      if (!parseV4(text, 0, n, bytes, 0)) {
        return null;
      }
    } else {
      bytes = parseV6(text, n);
      if (bytes == null) {
        return null;
      }
    }
    try {
      // getByAddress never consults DNS: it only checks the array's length.
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      return null;
    }
  }

  private static boolean isV4Candidate(ByteString s, int n) {
    for (int i = 0; i < n; i++) {
      if (s.byteAt(i) == ':') {
        return false;
      }
    }
    return true;
  }

  /** Parses exactly four decimal octets in {@code s[from, to)} into {@code out[off..off+4)}. */
  private static boolean parseV4(ByteString s, int from, int to, byte[] out, int off) {
    int octet = 0;
    int i = from;
    while (true) {
      int start = i;
      int value = 0;
      while (i < to && i - start < 4) {
        int c = s.byteAt(i);
        if (c < '0' || c > '9') {
          break;
        }
        value = value * 10 + (c - '0');
        i++;
      }
      int digits = i - start;
      if (digits == 0 || digits > 3 || value > 255 || (digits > 1 && s.byteAt(start) == '0')) {
        return false;
      }
      out[off + octet] = (byte) value;
      octet++;
      if (octet == 4) {
        return i == to;
      }
      if (i >= to || s.byteAt(i) != '.') {
        return false;
      }
      i++;
    }
  }

  private static byte[] parseV6(ByteString s, int n) {
    if (n < 2) {
      return null;
    }
    byte[] out = new byte[16];
    int pos = 0;
    int i = 0;
    int gapAt = -1;
    if (s.byteAt(0) == ':') {
      if (s.byteAt(1) != ':') {
        return null;
      }
      gapAt = 0;
      i = 2;
    }
    while (i < n) {
      int start = i;
      int value = 0;
      while (i < n) {
        int h = hex(s.byteAt(i));
        if (h < 0) {
          break;
        }
        value = (value << 4) | (h & 0xF);
        i++;
        if (i - start > 4) {
          break;
        }
      }
      if (i < n && s.byteAt(i) == '.') {
        // A dotted-quad tail fills the last four bytes.
        if (pos > 12 || !parseV4(s, start, n, out, pos)) {
          return null;
        }
        pos += 4;
        break;
      }
      int digits = i - start;
      if (digits == 0 || digits > 4 || pos > 14) {
        return null;
      }
      out[pos++] = (byte) (value >>> 8);
      out[pos++] = (byte) value;
      if (i == n) {
        break;
      }
      if (s.byteAt(i) != ':') {
        return null;
      }
      i++;
      if (i == n) {
        return null; // a trailing single colon
      }
      if (s.byteAt(i) == ':') {
        if (gapAt >= 0) {
          return null; // "::" twice
        }
        gapAt = pos;
        i++;
      }
    }
    if (gapAt >= 0) {
      if (pos == 16) {
        return null; // "::" must stand for at least one group
      }
      int tail = pos - gapAt;
      System.arraycopy(out, gapAt, out, 16 - tail, tail);
      for (int k = gapAt; k < 16 - tail; k++) {
        out[k] = 0;
      }
    } else if (pos != 16) {
      return null;
    }
    return out;
  }

  private static int hex(int c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }
}
