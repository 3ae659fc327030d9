package io.jxds.api.internal.decode;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Parses an IPv4 or IPv6 literal from {@code socket_address.address} without DNS and without
 * allocating beyond the {@code InetAddress} itself: gRFC A27
 * requires endpoint addresses to be IP literals, and {@link InetAddress#getByName} would resolve
 * anything else.
 *
 * <p>Accepted: dotted-quad IPv4 ({@code 10.0.0.1}; an octet with a leading zero such as
 * {@code 010} is refused because some parsers read it as octal), and IPv6 in the RFC 4291 text
 * forms, with at most one {@code ::} and an optional dotted-quad tail ({@code ::ffff:10.0.0.1}).
 * Refused: brackets, zone ids ({@code fe80::1%eth0}), hostnames, anything else.
 */
public final class IpLiteral {
  /** The longest IPv6 text form: {@code ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255}. */
  static final int MAX_TEXT_LENGTH = 45;

  private IpLiteral() {}

  /**
   * The address, or null when {@code text} is not an IP literal.
   *
   * @param text the text to read
   * @return the address, or null
   */
  public static InetAddress parse(String text) {
    return new IpLiteral.Parser().parse(text);
  }

  /**
   * Reusable scratch space for parsing many addresses in one decode: each address is copied once
   * into {@link #text} and parsed from the array, and the result
   * bytes go to {@link #address}, which {@link InetAddress#getByAddress(byte[])} copies.
   */
  static final class Parser {
    private final byte[] text = new byte[MAX_TEXT_LENGTH];
    private final byte[] v4 = new byte[4];
    private final byte[] v6 = new byte[16];
    private int hash;

    /** The address, or null when {@code literal} is not an IP literal. */
    InetAddress parse(String literal) {
      int n = literal.length();
      if (n < 2 || n > MAX_TEXT_LENGTH) {
        return null;
      }
      // Fast path for the common case, a plain dotted quad, read straight from the String. Any
      // surprise (a colon, a hex digit, a leading zero, a fourth digit) goes to the general
      // parser, which decides; this path only ever accepts what the general one accepts.
      int octet = 0;
      int value = 0;
      int digits = 0;
      for (int i = 0; i < n; i++) {
        char c = literal.charAt(i);
        if (c >= '0' && c <= '9' && digits < 3 && !(digits == 1 && value == 0)) {
          value = value * 10 + (c - '0');
          digits++;
        } else if (c == '.' && digits > 0 && octet < 3 && value <= 255) {
          v4[octet++] = (byte) value;
          value = 0;
          digits = 0;
        } else {
          return parseGeneral(literal, n);
        }
      }
      if (octet != 3 || digits == 0 || value > 255) {
        return parseGeneral(literal, n);
      }
      v4[3] = (byte) value;
      return address(v4);
    }

    private InetAddress parseGeneral(String literal, int n) {
      for (int i = 0; i < n; i++) {
        char c = literal.charAt(i);
        if (c > 0x7F) {
          return null; // never let a non-ASCII char alias an ASCII digit below
        }
        text[i] = (byte) c;
      }
      byte[] bytes;
      int colon = indexOf(text, n, (byte) ':');
      if (colon < 0) {
        if (!parseV4(text, 0, n, v4, 0)) {
          return null;
        }
        bytes = v4;
      } else {
        if (!parseV6(text, n, v6)) {
          return null;
        }
        bytes = v6;
      }
      return address(bytes);
    }

    private InetAddress address(byte[] bytes) {
      try {
        // getByAddress never consults DNS: it only checks the array's length, and copies it.
        InetAddress address = InetAddress.getByAddress(bytes);
        // An IPv4-mapped IPv6 literal comes back as an Inet4Address: hash what it became, so that
        // it collides with (and is found equal to) the same plain IPv4 address.
        hash = bytes == v4 ? intOf(v4, 0) : hashOf(address, v6);
        return address;
      } catch (UnknownHostException e) {
        return null;
      }
    }

    /** The last address as an int if IPv4, else a hash of its 16 bytes; {@link AddressSet} mixes it. */
    int lastHash() {
      return hash;
    }

    private static int hashOf(InetAddress address, byte[] v6) {
      if (address instanceof java.net.Inet4Address) {
        return intOf(v6, 12);
      }
      return intOf(v6, 0) * 0x9E3779B1 + intOf(v6, 4) * 0x85EBCA77 + intOf(v6, 8) * 0xC2B2AE3D + intOf(v6, 12);
    }

    private static int intOf(byte[] b, int off) {
      return (b[off] & 0xFF) << 24 | (b[off + 1] & 0xFF) << 16 | (b[off + 2] & 0xFF) << 8 | (b[off + 3] & 0xFF);
    }

    private static int indexOf(byte[] s, int n, byte c) {
      for (int i = 0; i < n; i++) {
        if (s[i] == c) {
          return i;
        }
      }
      return -1;
    }
  }

  /** Parses exactly four decimal octets in {@code s[from, to)} into {@code out[off..off+4)}. */
  private static boolean parseV4(byte[] s, int from, int to, byte[] out, int off) {
    int octet = 0;
    int i = from;
    while (true) {
      int start = i;
      int value = 0;
      while (i < to && i - start < 4) {
        int c = s[i];
        if (c < '0' || c > '9') {
          break;
        }
        value = value * 10 + (c - '0');
        i++;
      }
      int digits = i - start;
      if (digits == 0 || digits > 3 || value > 255 || (digits > 1 && s[start] == '0')) {
        return false;
      }
      out[off + octet] = (byte) value;
      octet++;
      if (octet == 4) {
        return i == to;
      }
      if (i >= to || s[i] != '.') {
        return false;
      }
      i++;
    }
  }

  /** Parses an IPv6 literal in {@code s[0, n)} into {@code out} (16 bytes); false if it is not one. */
  private static boolean parseV6(byte[] s, int n, byte[] out) {
    if (n < 2) {
      return false;
    }
    int pos = 0;
    int i = 0;
    int gapAt = -1;
    if (s[0] == ':') {
      if (s[1] != ':') {
        return false;
      }
      gapAt = 0;
      i = 2;
    }
    while (i < n) {
      int start = i;
      int value = 0;
      while (i < n) {
        int h = hex(s[i]);
        if (h < 0) {
          break;
        }
        value = (value << 4) | (h & 0xF);
        i++;
        if (i - start > 4) {
          break;
        }
      }
      if (i < n && s[i] == '.') {
        // A dotted-quad tail fills the last four bytes.
        if (pos > 12 || !parseV4(s, start, n, out, pos)) {
          return false;
        }
        pos += 4;
        break;
      }
      int digits = i - start;
      if (digits == 0 || digits > 4 || pos > 14) {
        return false;
      }
      out[pos++] = (byte) (value >>> 8);
      out[pos++] = (byte) value;
      if (i == n) {
        break;
      }
      if (s[i] != ':') {
        return false;
      }
      i++;
      if (i == n) {
        return false; // a trailing single colon
      }
      if (s[i] == ':') {
        if (gapAt >= 0) {
          return false; // "::" twice
        }
        gapAt = pos;
        i++;
      }
    }
    if (gapAt >= 0) {
      if (pos == 16) {
        return false; // "::" must stand for at least one group
      }
      int tail = pos - gapAt;
      System.arraycopy(out, gapAt, out, 16 - tail, tail);
      for (int k = gapAt; k < 16 - tail; k++) {
        out[k] = 0;
      }
    } else if (pos != 16) {
      return false;
    }
    return true;
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
